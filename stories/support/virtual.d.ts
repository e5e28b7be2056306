/** Served by .storybook/demo-backend.ts: where the demos' host runs. */
declare module 'virtual:envelope-demo' {
  /** The host's origin, e.g. http://127.0.0.1:3100 (no trailing slash). */
  export const hostUrl: string
}
