import TempEtaPanel, { type TempEtaPanelProps } from "../../islands/TempEtaPanel.tsx";
import { Layout } from "./_layout.tsx";

/** Data of the temperature page. */
export interface TemperaturePageData {
  user: string;
  panel: TempEtaPanelProps;
}

/** The Temperature ETA page. */
export default function TemperaturePage({ user, panel }: TemperaturePageData) {
  return (
    <Layout title="Temperature" user={user}>
      <TempEtaPanel {...panel} />
    </Layout>
  );
}
