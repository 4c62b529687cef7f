import { MAX_IMAGE_BYTES } from "../../domain/reports/report-rules";
import { AppError, badRequest } from "../../errors";

/**
 * The bytes of images sent as base64 text in a JSON body (REST, GraphQL): plain base64 or base64url, or a
 * `data:` URL; whitespace ignored. Text that is not base64 is a 400 naming `images[i]`; one that would
 * decode to more than the domain's largest image a 413, before it is decoded.
 */
export function decodeBase64Images(list: readonly string[]): Buffer[] {
  return list.map((s, i) => {
    const data = s.replace(/^data:[\w/+.-]+;base64,/, "").replace(/\s+/g, "");
    if (data.length === 0 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(data))
      throw badRequest(`The field 'images[${i}]' is invalid: expected a base64 string`, {
        parameter: `images[${i}]`,
        value: "(not base64)",
        expected: "a base64 string",
      });
    if ((data.length * 3) / 4 > MAX_IMAGE_BYTES)
      throw new AppError("PayloadTooLarge", `Image ${i} is larger than ${MAX_IMAGE_BYTES} bytes`);
    return Buffer.from(data, "base64");
  });
}
