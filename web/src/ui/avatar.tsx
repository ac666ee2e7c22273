import { useState } from "react";
import "./avatar.css";

interface AvatarProps {
  name: string;
  imageUrl?: string | null;
  size?: number;
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]?.[0], parts.at(-1)?.[0]] : [parts[0]?.[0]];
  return letters.join("").toUpperCase() || "?";
}

/**
 * A person's picture, or their initials when there is none or it cannot be loaded (not this
 * viewer's to see, gone meanwhile). Decorative: the name is shown beside it.
 */
export function Avatar({ name, imageUrl, size = 36 }: AvatarProps) {
  const [failed, setFailed] = useState<string | null>(null);
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: size * 0.38 }}
      aria-hidden="true"
    >
      {imageUrl && failed !== imageUrl ? (
        <img src={imageUrl} alt="" onError={() => setFailed(imageUrl)} />
      ) : (
        initials(name)
      )}
    </span>
  );
}
