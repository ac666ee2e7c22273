import { Icon } from "../ui/icons";

/** The preview toolbar's icons; decorative, every button carries its own name. */
/** Previous and next page: mirrored on a right-to-left page (files.css). */
export const PreviousIcon = () => (
  <Icon className="preview-icon--directional">
    <path d="m15 18-6-6 6-6" />
  </Icon>
);

export const NextIcon = () => (
  <Icon className="preview-icon--directional">
    <path d="m9 18 6-6-6-6" />
  </Icon>
);

export const ZoomInIcon = () => (
  <Icon>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5M11 8v6M8 11h6" />
  </Icon>
);

export const ZoomOutIcon = () => (
  <Icon>
    <circle cx="11" cy="11" r="7" />
    <path d="m20 20-3.5-3.5M8 11h6" />
  </Icon>
);

/** Fit width: arrows pointing out to both sides. */
export const FitWidthIcon = () => (
  <Icon>
    <path d="M3 12h18M7 8l-4 4 4 4M17 8l4 4-4 4" />
  </Icon>
);

/** Show at 100%: arrows pointing outwards. */
export const ActualSizeIcon = () => (
  <Icon>
    <path d="M15 3h6v6M9 21H3v-6M21 3l-7 7M3 21l7-7" />
  </Icon>
);

/** Fit to screen: arrows pointing inwards. */
export const FitScreenIcon = () => (
  <Icon>
    <path d="M4 14h6v6M20 10h-6V4M14 10l7-7M3 21l7-7" />
  </Icon>
);
