import { useTranslation } from "react-i18next";
import type { SearchResult } from "../api/search";
import { Dialog } from "../ui/dialog";
import { MessageSearch } from "./message-search";

interface SearchDialogProps {
  clientId: string;
  onClose: () => void;
  onOpen: (result: SearchResult) => void;
}

/** The client portal's search: the client's own conversation, in a dialog (loaded on demand). */
export default function SearchDialog({ clientId, onClose, onOpen }: SearchDialogProps) {
  const { t } = useTranslation("conversation");
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t("Search your conversation")}
      className="search-dialog"
    >
      <MessageSearch clientId={clientId} showClientName={false} onOpen={onOpen} autoFocus>
        <p className="message-search__status">{t("Find messages and files by their words.")}</p>
      </MessageSearch>
    </Dialog>
  );
}
