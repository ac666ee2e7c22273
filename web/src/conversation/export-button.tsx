import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { serverMessage } from "../api/client";
import { downloadExport } from "../api/export-download";
import { Button, type ButtonProps } from "../ui/button";
import { DownloadIcon } from "../ui/notice-icons";
import { useToast } from "../ui/toast";

interface ExportButtonProps extends Pick<ButtonProps, "variant" | "size" | "className"> {
  /** The export's API path (shared/schemas/exports.ts, exportPaths). */
  path: string;
  label: string;
  /** The accessible name when the label alone would be ambiguous ("Export conversation with Acme"). */
  ariaLabel?: string;
}

/**
 * Downloads an export (issue 28): the ZIP goes to the browser's downloads, or a large one is
 * emailed as a link, which a toast says. Used by the dashboard and the portal.
 */
export function ExportButton({ path, label, ariaLabel, ...buttonProps }: ExportButtonProps) {
  const { t } = useTranslation("conversation");
  const toast = useToast();
  const exportNow = useMutation({
    mutationFn: () => downloadExport(path),
    onSuccess: (outcome) =>
      outcome.kind === "mailed"
        ? toast({ title: t("We'll email you a link"), description: outcome.message })
        : toast({
            title: t("Export downloaded"),
            description: outcome.fileName,
            variant: "success",
          }),
    onError: (error) =>
      toast({
        title: t("Export failed"),
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });
  return (
    <Button
      variant="secondary"
      size="sm"
      {...buttonProps}
      icon={<DownloadIcon />}
      loading={exportNow.isPending}
      aria-label={ariaLabel}
      onClick={() => exportNow.mutate()}
    >
      {exportNow.isPending ? t("Preparing...") : label}
    </Button>
  );
}
