// swagger-ui-dist ships no types; the gateway uses one function of it.
declare module 'swagger-ui-dist' {
  /** The folder the package's assets (swagger-ui-bundle.js, swagger-ui.css, …) live in. */
  export function getAbsoluteFSPath(): string;
}
