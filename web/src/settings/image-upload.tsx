import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ChangeEvent, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { UserChangedResponse } from "../../../shared/schemas/user";
import { apiPost, serverMessage } from "../api/client";
import { Button } from "../ui/button";
import { UploadIcon } from "../ui/icons";
import { useToast } from "../ui/toast";
import { imageFileProblem } from "./image-file-check";
import { applyUserAnswer } from "./user-answer";

interface ImageUploadProps {
  /** e.g. /api/user/profile-picture */
  endpoint: string;
  /** The multipart field name the server reads. */
  field: string;
  label: string;
  successTitle: string;
  failureTitle: string;
}

/** A button that picks an image, checks it, and uploads it as multipart. */
export function ImageUpload({
  endpoint,
  field,
  label,
  successTitle,
  failureTitle,
}: ImageUploadProps) {
  const { t } = useTranslation("settings");
  const input = useRef<HTMLInputElement>(null);
  const queryClient = useQueryClient();
  const toast = useToast();

  const upload = useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append(field, file);
      return apiPost<UserChangedResponse>(endpoint, form);
    },
    onSuccess: (answer) => {
      applyUserAnswer(queryClient, answer);
      toast({ title: successTitle, variant: "success" });
    },
    onError: (error) =>
      toast({
        title: failureTitle,
        description: serverMessage(error, t("Please try again")),
        variant: "destructive",
      }),
  });

  const choose = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const problem = imageFileProblem(file);
    if (problem) toast(problem);
    else upload.mutate(file);
  };

  return (
    <>
      <input ref={input} type="file" accept="image/*" hidden onChange={choose} tabIndex={-1} />
      <Button
        variant="secondary"
        size="sm"
        icon={<UploadIcon />}
        loading={upload.isPending}
        onClick={() => input.current?.click()}
      >
        {upload.isPending ? t("Uploading...") : label}
      </Button>
    </>
  );
}
