/** Resolves on the next turn of the event loop: long work done in slices lets other requests in between. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
