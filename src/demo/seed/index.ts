export * from "./ngsi-ld-doc";
export { projectRoot, datasetPath } from "./project-root";
export * from "./camera-records";
export * from "./districts";
export * from "./district-locator";
export * from "./seed-entities";
