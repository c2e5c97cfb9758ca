"""Tests of the upstream layer: configuration, connections, declarations, schema checks and search."""
