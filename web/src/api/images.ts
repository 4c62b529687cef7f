import { request } from "./http";

/** An image the service serves behind the token, as an object URL an `<img>` can show. */
export async function authorizedImage(url: string): Promise<string> {
  const res = await request(url, { accept: "image/*" });
  return URL.createObjectURL(await res.blob());
}
