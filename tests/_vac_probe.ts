import { testDashboard } from "./routes/_dashboard.ts";
import { seedStore } from "./routes/_seed.ts";
await using d = await testDashboard();
seedStore(d.web.store);
for (const n of [0, 10, 100, 1000]) {
  for (let i = 0; i < n; i++) await (await d.request("/api/results")).text();
  for (const p of ["/api/dashboard/stats", "/api/comparison", "/"]) {
    await (await d.request(p)).text();
  }
  const res = await d.request("/api/cache/clear", { method: "POST" });
  console.log(n, res.status, await res.text());
  seedStore(d.web.store);
}
