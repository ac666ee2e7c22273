/**
 * How the client portal names the owner, wherever it does (the header's contact, the composer,
 * the empty conversation, the owner's messages and files, search results, notifications): the
 * company name when there is one, else the full name. docs/decisions.md, "Browser defects
 * (issue 23)".
 */
export function ownerNameForClient(owner: {
  fullName: string;
  companyName?: string | null;
}): string {
  return owner.companyName || owner.fullName;
}
