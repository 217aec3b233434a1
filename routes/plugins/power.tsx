import PowerPanel, { type PowerPanelProps } from "../../islands/PowerPanel.tsx";
import { Layout } from "./_layout.tsx";

/** Data of the power page. */
export interface PowerPageData {
  user: string;
  panel: PowerPanelProps;
}

/** The branch power controller page. */
export default function PowerPage({ user, panel }: PowerPageData) {
  return (
    <Layout title="Power" user={user}>
      <PowerPanel {...panel} />
    </Layout>
  );
}
