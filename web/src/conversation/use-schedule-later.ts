import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { queryKeys } from "../api/query-keys";
import { useToast } from "../ui/toast";

/**
 * The composer's "Send later" (issue 28): schedules the text, refreshes the list and says when
 * it will go. Rejects (the composer puts the text back and says why) when the server refuses.
 * Its request and date code load when first used: the client portal never schedules, and its
 * first load has no room for them.
 */
export function useScheduleLater(clientId: string) {
  const queryClient = useQueryClient();
  const { t } = useTranslation("conversation");
  const toast = useToast();
  return useCallback(
    async (content: string, at: Date, visibility?: "internal") => {
      const [{ scheduleMessage }, { formatWhen }] = await Promise.all([
        import("./scheduled-api"),
        import("./send-later-times"),
      ]);
      const scheduled = await scheduleMessage(clientId, {
        content,
        sendAt: at.toISOString(),
        ...(visibility && { visibility }),
      });
      void queryClient.invalidateQueries({ queryKey: queryKeys.scheduled(clientId) });
      toast({
        title: visibility ? t("Note scheduled") : t("Message scheduled"),
        description: t("It will be sent {{when}}.", { when: formatWhen(scheduled.sendAt) }),
        variant: "success",
      });
    },
    [clientId, queryClient, toast, t],
  );
}
