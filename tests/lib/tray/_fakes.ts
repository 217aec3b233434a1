/**
 * Fakes for the tray's unit tests: a manual clock, an in-memory tray adapter and a scripted
 * dashboard client.
 *
 * @module
 */
import type { Clock } from "../../../lib/clock.ts";
import type {
  ControlPath,
  DashboardClient,
  MenuId,
  MenuModel,
  TrayAdapter,
  TrayState,
} from "../../../lib/tray/mod.ts";

/** A clock whose interval timers fire only on {@linkcode ManualClock.tick}. */
export class ManualClock implements Clock {
  timers = new Map<number, { fn: () => void; ms: number; repeat: boolean }>();
  #next = 1;
  now = () => 0;
  setTimeout(fn: () => void, ms: number): () => void {
    const id = this.#next++;
    this.timers.set(id, { fn, ms, repeat: false });
    return () => this.timers.delete(id);
  }
  setInterval(fn: () => void, ms: number): () => void {
    const id = this.#next++;
    this.timers.set(id, { fn, ms, repeat: true });
    return () => this.timers.delete(id);
  }
  /** Fires every interval timer once. */
  tick(): void {
    for (const t of [...this.timers.values()]) if (t.repeat) t.fn();
  }
  /** Intervals currently registered, in milliseconds. */
  intervals(): number[] {
    return [...this.timers.values()].filter((t) => t.repeat).map((t) => t.ms);
  }
}

/** An in-memory tray: records renders, lets tests click items. */
export class FakeTray implements TrayAdapter {
  renders: MenuModel[] = [];
  closeCalls = 0;
  #handler: (id: MenuId) => void = () => {};
  #close!: () => void;
  closed = new Promise<void>((r) => (this.#close = r));
  render(menu: MenuModel): Promise<void> {
    this.renders.push(menu);
    return Promise.resolve();
  }
  onClick(handler: (id: MenuId) => void): void {
    this.#handler = handler;
  }
  click(id: MenuId): void {
    this.#handler(id);
  }
  close(): Promise<void> {
    this.closeCalls++;
    this.#close();
    return Promise.resolve();
  }
  /** The last menu shown. */
  get last(): MenuModel | undefined {
    return this.renders.at(-1);
  }
}

/** A dashboard client whose status is set by the test and whose POSTs are recorded. */
export class ScriptedClient implements DashboardClient {
  state: TrayState = "idle";
  posts: ControlPath[] = [];
  statusCalls = 0;
  /** Paths whose POST fails. */
  failing = new Set<ControlPath>();
  status(): Promise<TrayState> {
    this.statusCalls++;
    return Promise.resolve(this.state);
  }
  control(path: ControlPath): Promise<void> {
    this.posts.push(path);
    if (this.failing.has(path)) return Promise.reject(new Error(`Cannot POST /api/${path}`));
    return Promise.resolve();
  }
}

/** Lets pending promise callbacks run. */
export async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((r) => setTimeout(r, 0));
}
