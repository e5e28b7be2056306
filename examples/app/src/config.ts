// The signing service the frames load from: `npm start`'s host unless VITE_SIGNING_URL (read when
// Vite serves or builds the app) names another, e.g. https://sign.example.com.
export const host: string = import.meta.env.VITE_SIGNING_URL ?? 'http://localhost:3100'
