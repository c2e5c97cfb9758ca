const apiKey = process.env.API_KEY || 'none';
const region = process.env.AWS_REGION ?? 'us-east-1';
({ apiKey, region });
