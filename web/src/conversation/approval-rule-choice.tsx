import { useQuery } from "@tanstack/react-query";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import type { ContactPayload } from "../../../shared/schemas/contacts";
import { apiGet } from "../api/client";
import { queryKeys } from "../api/query-keys";
import type { UploadApprovalRule } from "../api/upload-transport";
import "./approvals.css";

export interface ApprovalRuleChoiceProps {
  clientId: string;
  value: UploadApprovalRule;
  onChange: (rule: UploadApprovalRule) => void;
  disabled?: boolean;
}

/**
 * Who must approve a file sent for approval (issue 27), shown when the client has two or more
 * people who joined (those who can decide): any one of them, or everyone, by name.
 */
export function ApprovalRuleChoice({
  clientId,
  value,
  onChange,
  disabled,
}: ApprovalRuleChoiceProps) {
  const { t } = useTranslation("conversation");
  const name = useId();
  const { data } = useQuery({
    queryKey: queryKeys.contacts(clientId),
    queryFn: () =>
      apiGet<ContactPayload[]>(`/api/clients/${encodeURIComponent(clientId)}/contacts`),
  });
  const people = (data ?? []).filter((person) => person.joinedAt);
  if (people.length < 2) return null;
  const listed = people.map((person) => person.name).join(", ");
  const options: { rule: UploadApprovalRule; label: string; hint: string }[] = [
    {
      rule: "any",
      label: t("Any one of them"),
      hint: t("The first decision counts for all: {{names}}", { names: listed }),
    },
    {
      rule: "everyone",
      label: t("Everyone"),
      hint: t("Everyone must approve: {{names}}", { names: listed }),
    },
  ];
  return (
    <fieldset className="approval-rule" disabled={disabled}>
      <legend className="approval-rule__legend">{t("Who must approve?")}</legend>
      {options.map((option) => (
        <label key={option.rule} className="upload-dialog__option approval-rule__option">
          <input
            type="radio"
            name={name}
            value={option.rule}
            checked={value === option.rule}
            onChange={() => onChange(option.rule)}
          />
          <span>
            {option.label}
            <span className="upload-dialog__option-hint">{option.hint}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
