import * as path from "node:path";
import { findProjectRoot } from "../../rdf/contexts/project-root";

let cached: string | undefined;

/** The project root (the nearest folder above this module holding package.json), found once. */
export function projectRoot(): string {
  return (cached ??= findProjectRoot(__dirname));
}

/** Absolute path of a file under dataset/. */
export function datasetPath(...parts: string[]): string {
  return path.join(projectRoot(), "dataset", ...parts);
}
