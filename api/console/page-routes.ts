// Every route of the console's pages (under /v2/console): the session pages (sign-in, home, mode, step-up,
// sign-out) and one list per group.
import type { AnyRoute } from '../http/route.ts';
import { deletePageRoutes } from './deletes/pages.ts';
import { keyPageRoutes } from './keys/pages.ts';
import { outboxPageRoutes } from './outbox/pages.ts';
import { passwordPageRoutes } from './settings/password.ts';
import { localTimePageRoutes } from './settings/local-time.ts';
import { rewardPageRoutes } from './rewards/pages.ts';
import { sessionPageRoutes } from './session/pages.ts';
import { settingsPageRoutes } from './settings/pages.ts';
import { tokenPageRoutes } from './tokens/pages.ts';
import { webhookPageRoutes } from './webhooks/pages.ts';
import { assetRoutes } from './kit/assets.ts';
import { widgetPageRoutes } from './widgets/pages.ts';
import { widgetEcardPageRoutes } from './widgets/ecards.ts';
import { ecardEditorPageRoutes } from './ecards/editor.ts';
import { ecardListPageRoutes } from './ecards/pages.ts';
import { previewPageRoutes } from './ecards/previews.ts';
import { brandPageRoutes } from './brands/pages.ts';
import { sendTestPageRoutes } from './send/send-test.ts';
import { sendPageRoutes } from './send/pages.ts';
import { sendLogPageRoutes } from './sends/pages.ts';
import { campaignPageRoutes, campaignWizardRoutes } from './campaigns/page-routes.ts';
import { automationPageRoutes } from './automations/pages.ts';
import { directoryPageRoutes } from './directory/pages.ts';
import { directoryImportPageRoutes } from './directory/import.ts';
import { profilePageRoutes } from './profile/pages.ts';
import { teamPageRoutes } from './team/pages.ts';
import { auditPageRoutes } from './audit/pages.ts';

export const consolePageRoutes: readonly AnyRoute[] = [
  ...sessionPageRoutes,
  ...keyPageRoutes,
  ...tokenPageRoutes,
  ...deletePageRoutes,
  ...webhookPageRoutes,
  ...rewardPageRoutes,
  ...settingsPageRoutes,
  ...outboxPageRoutes,
  ...passwordPageRoutes,
  ...profilePageRoutes,
  ...teamPageRoutes,
  ...auditPageRoutes,
  ...localTimePageRoutes,
  ...assetRoutes,
  ...widgetPageRoutes,
  ...widgetEcardPageRoutes,
  // The list's fixed paths (/ecards/bulk) before the editor's /ecards/:id, which would take them for an id.
  ...ecardListPageRoutes,
  ...ecardEditorPageRoutes,
  ...previewPageRoutes,
  ...brandPageRoutes,
  ...sendTestPageRoutes,
  ...sendPageRoutes,
  // The log's /sends/export.csv before /sends/:id.
  ...sendLogPageRoutes,
  // The wizard's fixed path (/campaigns/new) before the campaign's page /campaigns/:id.
  ...campaignWizardRoutes,
  ...campaignPageRoutes,
  ...automationPageRoutes,
  // The import's fixed paths (/directory/import...) before the directory's pages, should one take a path for an id.
  ...directoryImportPageRoutes,
  ...directoryPageRoutes,
];
