/** A small stroke icon set (24px grid, currentColor), so no icon library is needed. */
const PATHS = {
  check: 'M20 6 9 17l-5-5',
  arrowLeft: 'M19 12H5M12 19l-7-7 7-7',
  arrowRight: 'M5 12h14M12 5l7 7-7 7',
  arrowUp: 'M12 19V5M5 12l7-7 7 7',
  arrowDown: 'M12 5v14M19 12l-7 7-7-7',
  trash: 'M3 6h18M8 6V4h8v2M19 6l-1 14H6L5 6M10 11v6M14 11v6',
  plus: 'M12 5v14M5 12h14',
  x: 'M18 6 6 18M6 6l12 12',
  upload: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4M17 8l-5-5-5 5M12 3v12',
  file: 'M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8zM14 2v6h6M8 13h8M8 17h5',
  alert: 'M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z',
  link: 'M10 13a5 5 0 0 0 7.5.5l3-3a5 5 0 0 0-7-7l-1.7 1.7M14 11a5 5 0 0 0-7.5-.5l-3 3a5 5 0 0 0 7 7l1.7-1.7',
  users: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8',
  grip: 'M9 5h.01M9 12h.01M9 19h.01M15 5h.01M15 12h.01M15 19h.01',
  SIGNATURE: 'M3 17c3 0 4-8 6-8s1 7 3 7 2-3 3-3 1 2 3 2M3 21h18',
  FREE_SIGNATURE: 'M3 17c3 0 4-8 6-8s1 7 3 7 2-3 3-3 1 2 3 2M3 21h18',
  INITIALS: 'M4 18 8 6l4 12M5.5 14h5M15 6v12h3a3 3 0 0 0 0-6h-3 2.5a3 3 0 0 0 0-6H15',
  NAME: 'M20 21v-2a4 4 0 0 0-4-4H8a4 4 0 0 0-4 4v2M12 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
  EMAIL: 'M3 5h18v14H3zM3 6l9 7 9-7',
  DATE: 'M4 5h16v16H4zM16 3v4M8 3v4M4 10h16',
  TEXT: 'M4 7V4h16v3M9 20h6M12 4v16',
  NUMBER: 'M4 9h16M4 15h16M10 3 8 21M16 3l-2 18',
  CHECKBOX: 'M4 4h16v16H4zM8 12l3 3 5-6',
  RADIO: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM12 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6z',
  DROPDOWN: 'M3 6h18v12H3zM14 11l2 2 2-2',
} as const

export type IconName = keyof typeof PATHS

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  )
}
