/**
 * In-page notifications (when the browser's are not allowed): each shows for a few seconds.
 *
 * @module
 */
import type { Signal } from "@preact/signals";

/** One notification. */
export interface Toast {
  id: number;
  title: string;
  message: string;
}

/** How long a toast shows. */
export const TOAST_MS = 6000;

/** Shows `toast` in `list` for {@linkcode TOAST_MS}. */
export function showToast(list: Signal<Toast[]>, title: string, message: string): void {
  const id = (list.peek().at(-1)?.id ?? 0) + 1;
  list.value = [...list.peek(), { id, title, message }];
  setTimeout(() => list.value = list.value.filter((t) => t.id !== id), TOAST_MS);
}

/** The toasts. */
export function Toasts({ list }: { list: Signal<Toast[]> }) {
  return (
    <div class="toasts" aria-live="polite">
      {list.value.map((t) => (
        <div key={t.id} class="toast" role="status" data-testid="toast">
          <strong>{t.title}</strong> {t.message}
        </div>
      ))}
    </div>
  );
}
