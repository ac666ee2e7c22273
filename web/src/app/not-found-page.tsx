import { Link } from "react-router";
import { buttonClassName } from "../ui/button";
import { PageMessage } from "../ui/page-message";

export function NotFoundPage() {
  return (
    <PageMessage
      code="404"
      title="Page not found"
      text="The page you are looking for does not exist or has moved."
      actions={
        <Link to="/" className={buttonClassName("primary")}>
          Go to dashboard
        </Link>
      }
    />
  );
}
