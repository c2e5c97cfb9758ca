interface ApiResponse<T> {
  data: T;
  meta: { page: number; total: number };
}
interface Product { id: number; name: string; price: number; tags?: string[] }

const response = input as ApiResponse<Product[]>;
const tagged = response.data.filter((p): p is Product & { tags: string[] } => Array.isArray(p.tags));
const avg: number = response.data.reduce((s, p) => s + p.price, 0) / response.data.length;
console.log(`page ${response.meta.page} of ${Math.ceil(response.meta.total / response.data.length)}`);
({ avg: Number(avg.toFixed(2)), tagged: tagged.map(p => p.name) });
