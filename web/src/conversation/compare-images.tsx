import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "../ui/tabs";
import { ComparedImage, ComparePane, ComparePanes, type ComparedVersion } from "./compare-panes";
import { CompareSwipe } from "./compare-swipe";

type ImageVersion = ComparedVersion & { imageUrl: string };

/** Two image versions: side by side, or one over the other with a divider to swipe. */
export function CompareImages({ first, second }: { first: ImageVersion; second: ImageVersion }) {
  const { t } = useTranslation("conversation");
  const [mode, setMode] = useState("side-by-side");
  return (
    <Tabs value={mode} onValueChange={setMode} className="compare-images">
      <TabsList look="pill" aria-label={t("How to compare")} className="compare-images__modes">
        <TabsTrigger value="side-by-side">{t("Side by side")}</TabsTrigger>
        <TabsTrigger value="swipe">{t("Swipe")}</TabsTrigger>
      </TabsList>
      <TabsContent value="side-by-side" className="compare-images__panel">
        <ComparePanes>
          <ComparePane version={first}>
            <ComparedImage version={first} src={first.imageUrl} />
          </ComparePane>
          <ComparePane version={second}>
            <ComparedImage version={second} src={second.imageUrl} />
          </ComparePane>
        </ComparePanes>
      </TabsContent>
      <TabsContent value="swipe" className="compare-images__panel">
        {/* Keyed: another pair of versions starts from the middle again. */}
        <CompareSwipe key={`${first.number}-${second.number}`} first={first} second={second} />
      </TabsContent>
    </Tabs>
  );
}
