import busboy from "busboy";
import type { Context } from "koa";
import { AppError, badRequest } from "../../errors";

/** Limits of one multipart/form-data body. */
export interface MultipartLimits {
  /** Most files (more is a 400). */
  files: number;
  /** Largest file in bytes (larger is a 413). */
  fileBytes: number;
  /** Most text fields, and the longest one in bytes. */
  fields: number;
  fieldBytes: number;
}

/** A parsed form: text fields (the first value of each name) and the files' bytes, in order. */
export interface ParsedForm {
  fields: Record<string, string>;
  files: { field: string; bytes: Buffer; mimeType: string }[];
}

/**
 * Reads a multipart/form-data body with busboy under `limits` (RFC 7578): a file past `fileBytes` is a
 * 413, a file past `files` or a field past its limits a 400, a broken or truncated body a 400. On a
 * refusal the rest of the body is drained unread so the error reaches the client. Every stream involved
 * (the parser, each file, the request) has an `error` listener: an error in any of them refuses this
 * request and nothing else (an unhandled stream error would end the process).
 */
export function readMultipart(ctx: Context, limits: MultipartLimits): Promise<ParsedForm> {
  return new Promise((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: ctx.req.headers,
        limits: {
          files: limits.files,
          fileSize: limits.fileBytes,
          fields: limits.fields,
          fieldSize: limits.fieldBytes,
          parts: limits.files + limits.fields,
        },
      });
    } catch (e) {
      reject(badRequest(`Bad multipart body: ${(e as Error).message}`));
      return;
    }
    const form: ParsedForm = { fields: {}, files: [] };
    let failed = false;
    const req = ctx.req;
    const fail = (err: AppError): void => {
      if (failed) return;
      failed = true;
      req.off("error", onRequestError);
      req.off("close", onRequestClose);
      req.unpipe(bb);
      req.resume();
      ctx.set("Connection", "close");
      reject(err);
    };
    const broken = (e: Error): AppError => badRequest(`Bad multipart body: ${e.message}`);
    // a client that aborts mid-upload: the parser never finishes, so the request's end decides
    const onRequestError = (e: Error): void => fail(broken(e));
    const onRequestClose = (): void => {
      if (!req.complete) fail(badRequest("Bad multipart body: the request ended before its last part"));
    };
    req.on("error", onRequestError);
    req.on("close", onRequestClose);
    bb.on("field", (name, value, info) => {
      if (info.valueTruncated)
        fail(
          badRequest(`The field '${name}' is longer than ${limits.fieldBytes} bytes`, { parameter: name }),
        );
      else if (!(name in form.fields)) form.fields[name] = value;
    });
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      let complete = false;
      stream.on("error", (e: Error) => fail(broken(e)));
      stream.on("data", (c: Buffer) => {
        if (!failed) chunks.push(c);
      });
      stream.on("end", () => (complete = true));
      stream.on("limit", () =>
        fail(
          new AppError("PayloadTooLarge", `A file is larger than ${limits.fileBytes} bytes`, {
            parameter: field,
          }),
        ),
      );
      stream.on("close", () => {
        if (!failed && complete)
          form.files.push({ field, bytes: Buffer.concat(chunks), mimeType: info.mimeType });
      });
    });
    bb.on("filesLimit", () =>
      fail(
        badRequest(`At most ${limits.files} files`, {
          parameter: "images",
          expected: `at most ${limits.files} images`,
        }),
      ),
    );
    bb.on("fieldsLimit", () => fail(badRequest(`At most ${limits.fields} fields`)));
    bb.on("partsLimit", () => fail(badRequest("Too many parts")));
    bb.on("error", (e: Error) => fail(broken(e)));
    bb.on("close", () => {
      if (failed) return;
      req.off("error", onRequestError);
      req.off("close", onRequestClose);
      resolve(form);
    });
    req.pipe(bb);
  });
}
