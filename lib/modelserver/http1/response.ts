/**
 * The response of the HTTP/1.1 client: status, header fields and a body read once, as it
 * arrives (iterated), whole (`text()`), or dropped (`cancel()`).
 *
 * @module
 */
import type { ResponseHead } from "./head.ts";

/** A response; its body can be read once (iterated, `text()`) or cancelled. */
export class Http1Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly #body: AsyncGenerator<Uint8Array>;
  readonly #drop: () => void;
  #used = false;

  /**
   * @param head the parsed head
   * @param body the body's bytes, ending the connection's use when it ends
   * @param drop closes the connection (a body never iterated runs no `finally`)
   */
  constructor(head: ResponseHead, body: AsyncGenerator<Uint8Array>, drop: () => void) {
    this.status = head.status;
    this.statusText = head.statusText;
    this.headers = head.headers;
    this.#body = body;
    this.#drop = drop;
  }

  /** Whether the status is 2xx. */
  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  /** Whether the body was read or dropped. */
  get bodyUsed(): boolean {
    return this.#used;
  }

  /** The body's bytes as they arrive (one iteration); stopping early closes the connection. */
  readonly body: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => {
      if (this.#used) throw new TypeError("The body has been read already");
      this.#used = true;
      return this.#body;
    },
  };

  /** The whole body as UTF-8 text. */
  async text(): Promise<string> {
    const decoder = new TextDecoder();
    let text = "";
    for await (const piece of this.body) text += decoder.decode(piece, { stream: true });
    return text + decoder.decode();
  }

  /** Drops the body and closes the connection. */
  async cancel(): Promise<void> {
    this.#used = true;
    this.#drop();
    await this.#body.return(undefined);
  }
}
