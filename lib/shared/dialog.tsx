/**
 * A modal dialog for islands: the native `<dialog>` opened with `showModal()` (the page behind
 * is inert), Tab and Shift+Tab kept inside it, Esc closing it, and the focus given back to the
 * element that had it when the dialog opened. Render it while the dialog is open and drop it to
 * close it (browser code: no Deno APIs).
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef } from "preact/hooks";

/** Props of {@linkcode ModalDialog}. */
export interface ModalDialogProps {
  /** The dialog's heading (its accessible name). */
  title: string;
  /** Called for Esc; the owner then stops rendering the dialog. */
  onClose(): void;
  children: ComponentChildren;
  /** `data-testid` of the dialog element. */
  testid?: string;
}

const FOCUSABLE =
  'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The elements Tab moves through inside `root`, in order. */
export function focusables(root: Element): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => !el.hidden);
}

/**
 * Keeps Tab inside `root`: from the last element to the first and, with Shift, from the first
 * to the last. Returns whether it moved the focus.
 */
export function trapTab(root: Element, ev: KeyboardEvent): boolean {
  if (ev.key !== "Tab") return false;
  const items = focusables(root);
  if (items.length === 0) {
    ev.preventDefault();
    return true;
  }
  const first = items[0]!;
  const last = items[items.length - 1]!;
  const active = root.ownerDocument.activeElement;
  const outside = !active || !root.contains(active);
  if (ev.shiftKey && (active === first || outside)) {
    ev.preventDefault();
    last.focus();
    return true;
  }
  if (!ev.shiftKey && (active === last || outside)) {
    ev.preventDefault();
    first.focus();
    return true;
  }
  return false;
}

let counter = 0;

/** A modal dialog; the element with `autofocus` inside it (else the first control) gets focus. */
export function ModalDialog({ title, onClose, children, testid }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useRef(`dialog-title-${++counter}`).current;
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const dialog = ref.current!;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    dialog.showModal();
    const onKey = (ev: KeyboardEvent) => {
      trapTab(dialog, ev);
    };
    // Esc: the browser fires `cancel`; the owner decides (it drops the dialog).
    const onCancel = (ev: Event) => {
      ev.preventDefault();
      close.current();
    };
    dialog.addEventListener("keydown", onKey);
    dialog.addEventListener("cancel", onCancel);
    return () => {
      dialog.removeEventListener("keydown", onKey);
      dialog.removeEventListener("cancel", onCancel);
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog ref={ref} class="modal" aria-labelledby={titleId} data-testid={testid}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </dialog>
  );
}
