import LogViewer, { type LogViewerProps } from "../../islands/LogViewer.tsx";
import { Layout } from "./_layout.tsx";

/** Data of the log viewer page. */
export interface LogsPageData {
  user: string;
  viewer: LogViewerProps;
}

/** The log viewer page. */
export default function LogsPage({ user, viewer }: LogsPageData) {
  return (
    <Layout title="Log monitor" user={user}>
      <LogViewer {...viewer} />
    </Layout>
  );
}
