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
 * 413, a file past `files` or a field past its limits a 400, a broken body a 400. On a refusal the rest
 * of the body is drained unread so the error reaches the client.
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
    const fail = (err: AppError): void => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe(bb);
      ctx.req.resume();
      ctx.set("Connection", "close");
      reject(err);
    };
    bb.on("field", (name, value, info) => {
      if (info.valueTruncated)
        fail(
          badRequest(`The field '${name}' is longer than ${limits.fieldBytes} bytes`, { parameter: name }),
        );
      else if (!(name in form.fields)) form.fields[name] = value;
    });
    bb.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => {
        if (!failed) chunks.push(c);
      });
      stream.on("limit", () =>
        fail(
          new AppError("PayloadTooLarge", `A file is larger than ${limits.fileBytes} bytes`, {
            parameter: field,
          }),
        ),
      );
      stream.on("close", () => {
        if (!failed) form.files.push({ field, bytes: Buffer.concat(chunks), mimeType: info.mimeType });
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
    bb.on("error", (e: Error) => fail(badRequest(`Bad multipart body: ${e.message}`)));
    bb.on("close", () => {
      if (!failed) resolve(form);
    });
    ctx.req.pipe(bb);
  });
}
