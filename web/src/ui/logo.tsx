import "./logo.css";

interface LogoProps {
  size?: "md" | "lg";
  /** Only the mark, e.g. in tight headers; it is then labelled for screen readers. */
  markOnly?: boolean;
}

/** ClientDesk's mark (a speech bubble with a tick: talk, then approve) and name. */
export function Logo({ size = "md", markOnly = false }: LogoProps) {
  const pixels = size === "lg" ? 40 : 32;
  return (
    <span className={`logo logo--${size}`}>
      <svg
        className="logo__mark"
        width={pixels}
        height={pixels}
        viewBox="0 0 32 32"
        role={markOnly ? "img" : undefined}
        aria-label={markOnly ? "ClientDesk" : undefined}
        aria-hidden={markOnly ? undefined : true}
      >
        <rect width="32" height="32" rx="8" fill="#0093ff" />
        <path
          d="M8 10.5A2.5 2.5 0 0 1 10.5 8h11A2.5 2.5 0 0 1 24 10.5v7a2.5 2.5 0 0 1-2.5 2.5H15l-4.2 3.4a.5.5 0 0 1-.8-.4V20A2 2 0 0 1 8 18z"
          fill="#fff"
        />
        <path
          d="m12.5 14 2.3 2.3 4.7-4.6"
          fill="none"
          stroke="#0093ff"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {!markOnly && <span className="logo__wordmark">ClientDesk</span>}
    </span>
  );
}
