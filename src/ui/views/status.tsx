/**
 * Status -> tone and icon. Every status is drawn with its text, a colour AND an icon shape, so it
 * reads without colour (projectors, colour blindness, greyscale prints).
 */
import { type Tone } from './tone';

export { nodeTone, podTone, TONE_WORDS, type Tone } from './tone';

/** A small icon per tone: a distinct shape for each. */
export function ToneIcon({ tone, size = 16 }: { tone: Tone; size?: number }) {
  const common = { width: size, height: size, viewBox: '0 0 16 16', 'aria-hidden': true, className: `tone-icon tone-icon-${tone}` } as const;
  switch (tone) {
    case 'ok': // filled circle with a check
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="7.5" fill="currentColor" />
          <path d="M4.5 8.2l2.3 2.3 4.7-4.9" fill="none" stroke="var(--icon-on)" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case 'progress': // hollow circle with a clock hand
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" strokeDasharray="3 2" />
          <path d="M8 4.5V8l2.5 1.5" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
        </svg>
      );
    case 'notready': // half-filled circle
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M8 1.5a6.5 6.5 0 0 1 0 13z" fill="currentColor" />
        </svg>
      );
    case 'error': // triangle with an exclamation mark
      return (
        <svg {...common}>
          <path d="M8 1L15.5 14.5H.5z" fill="currentColor" />
          <path d="M8 5.5v4.5" stroke="var(--icon-on)" strokeWidth="1.9" strokeLinecap="round" />
          <circle cx="8" cy="12.3" r="1" fill="var(--icon-on)" />
        </svg>
      );
    case 'terminating': // square with an x (stopping)
      return (
        <svg {...common}>
          <rect x="1" y="1" width="14" height="14" rx="2.5" fill="currentColor" />
          <path d="M5 5l6 6M11 5l-6 6" stroke="var(--icon-on)" strokeWidth="1.9" strokeLinecap="round" />
        </svg>
      );
    case 'done': // square with a check
      return (
        <svg {...common}>
          <rect x="1.5" y="1.5" width="13" height="13" rx="2.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M4.5 8.2l2.3 2.3 4.7-4.9" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      );
    case 'unknown': // dotted circle with a question mark
      return (
        <svg {...common}>
          <circle cx="8" cy="8" r="6.8" fill="none" stroke="currentColor" strokeWidth="1.8" strokeDasharray="1.6 1.6" />
          <path d="M5.9 6.1a2.1 2.1 0 1 1 3 1.9c-.6.3-.9.7-.9 1.3v.4" fill="none" stroke="currentColor" strokeWidth="1.7" strokeLinecap="round" />
          <circle cx="8" cy="11.8" r="1" fill="currentColor" />
        </svg>
      );
  }
}
