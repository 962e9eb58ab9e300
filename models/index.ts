// Defines every model on one Sequelize instance (so two app instances in one process stay apart).
import type { Sequelize } from 'sequelize';
import { defineAccount } from './Account.ts';
import { defineAccountSettings } from './AccountSettings.ts';
import { defineApiKey } from './ApiKey.ts';
import { defineAutomation } from './Automation.ts';
import { defineAutomationEcard } from './AutomationEcard.ts';
import { defineAutomationSend } from './AutomationSend.ts';
import { defineAutomationZoneWatermark } from './AutomationZoneWatermark.ts';
import { defineCampaign } from './Campaign.ts';
import { defineCampaignRecipient } from './CampaignRecipient.ts';
import { defineCampaignWave } from './CampaignWave.ts';
import { defineConfirmationToken } from './ConfirmationToken.ts';
import { defineConsoleModels } from './ConsoleSession.ts';
import { defineCustomField } from './CustomField.ts';
import { defineDepartment } from './Department.ts';
import { defineEcard } from './Ecard.ts';
import { defineIdempotencyKey } from './IdempotencyKey.ts';
import { defineGiftModels } from './Gift.ts';
import { defineMailMessage } from './MailMessage.ts';
import { defineMailSinkMessage } from './MailSinkMessage.ts';
import { defineMediaFile } from './MediaFile.ts';
import { defineMemberCustomValue } from './MemberCustomValue.ts';
import { defineMemberDepartment } from './MemberDepartment.ts';
import { defineMemberSeats } from './MemberSeats.ts';
import { defineMembership } from './Membership.ts';
import { defineAuditEvent } from './AuditEvent.ts';
import { defineOutboxEvent } from './OutboxEvent.ts';
import { defineQuotaUsage } from './QuotaUsage.ts';
import { defineSend } from './Send.ts';
import { defineSendRecipient } from './SendRecipient.ts';
import { defineSendSnapshot } from './SendSnapshot.ts';
import { defineSendDesigns } from './SendDesign.ts';
import { defineSendSuspension } from './SendSuspension.ts';
import { defineSuppression } from './Suppression.ts';
import { defineTeamMember } from './TeamMember.ts';
import { defineWebhookAttempt } from './WebhookAttempt.ts';
import { defineWebhookDelivery } from './WebhookDelivery.ts';
import { defineWebhookEndpoint } from './WebhookEndpoint.ts';
import { defineWebhookSecret } from './WebhookSecret.ts';
import { defineBrand } from './Brand.ts';
import { defineUnsubscribeLink } from './UnsubscribeLink.ts';
import { defineUser } from './User.ts';
import { defineWidget } from './Widget.ts';
import { defineWidgetActivity } from './WidgetActivity.ts';

export function createModels(sequelize: Sequelize) {
  const Account = defineAccount(sequelize);
  const AccountSettings = defineAccountSettings(sequelize);
  const User = defineUser(sequelize);
  const Membership = defineMembership(sequelize);
  const AuditEvent = defineAuditEvent(sequelize);
  const ApiKey = defineApiKey(sequelize);
  const Widget = defineWidget(sequelize);
  const Ecard = defineEcard(sequelize);
  const Brand = defineBrand(sequelize);
  const MediaFile = defineMediaFile(sequelize);
  const ConfirmationToken = defineConfirmationToken(sequelize);
  const TeamMember = defineTeamMember(sequelize);
  const Department = defineDepartment(sequelize);
  const MemberDepartment = defineMemberDepartment(sequelize);
  const CustomField = defineCustomField(sequelize);
  const MemberCustomValue = defineMemberCustomValue(sequelize);
  const MemberSeats = defineMemberSeats(sequelize);
  const OutboxEvent = defineOutboxEvent(sequelize);
  const WebhookEndpoint = defineWebhookEndpoint(sequelize);
  const WebhookSecret = defineWebhookSecret(sequelize);
  const WebhookDelivery = defineWebhookDelivery(sequelize);
  const WebhookAttempt = defineWebhookAttempt(sequelize);
  const MailMessage = defineMailMessage(sequelize);
  const Send = defineSend(sequelize);
  const SendRecipient = defineSendRecipient(sequelize);
  const SendSnapshot = defineSendSnapshot(sequelize);
  const { SendDesign, SendDesignRef } = defineSendDesigns(sequelize);
  const Campaign = defineCampaign(sequelize);
  const CampaignRecipient = defineCampaignRecipient(sequelize);
  const CampaignWave = defineCampaignWave(sequelize);
  const UnsubscribeLink = defineUnsubscribeLink(sequelize);
  const Automation = defineAutomation(sequelize);
  const AutomationEcard = defineAutomationEcard(sequelize);
  const AutomationSend = defineAutomationSend(sequelize);
  const AutomationZoneWatermark = defineAutomationZoneWatermark(sequelize);
  const IdempotencyKey = defineIdempotencyKey(sequelize);
  const QuotaUsage = defineQuotaUsage(sequelize);
  const Suppression = defineSuppression(sequelize);
  const SendSuspension = defineSendSuspension(sequelize);
  const MailSinkMessage = defineMailSinkMessage(sequelize);
  const { GiftSettings, GiftRule, GiftSpend, GiftCode, GiftOrder, SimulatedProviderOrder } = defineGiftModels(sequelize);
  const { ConsoleSession, SignInSlot } = defineConsoleModels(sequelize);
  const { WidgetCounter, WidgetAbuseEvent, WidgetSendWindow, WidgetVerification } = defineWidgetActivity(sequelize);
  Account.hasMany(ApiKey, { foreignKey: 'account_id' });
  ApiKey.belongsTo(Account, { foreignKey: 'account_id' });
  Account.hasMany(Membership, { foreignKey: 'account_id' });
  Membership.belongsTo(Account, { foreignKey: 'account_id' });
  User.hasMany(Membership, { foreignKey: 'user_id' });
  Membership.belongsTo(User, { foreignKey: 'user_id' });
  Widget.hasMany(Ecard, { foreignKey: 'widget_id' });
  Ecard.belongsTo(Widget, { foreignKey: 'widget_id' });
  return {
    sequelize,
    Account,
    AccountSettings,
    User,
    Membership,
    AuditEvent,
    ApiKey,
    Widget,
    Ecard,
    Brand,
    MediaFile,
    ConfirmationToken,
    TeamMember,
    Department,
    MemberDepartment,
    CustomField,
    MemberCustomValue,
    MemberSeats,
    OutboxEvent,
    WebhookEndpoint,
    WebhookSecret,
    WebhookDelivery,
    WebhookAttempt,
    MailMessage,
    Send,
    SendRecipient,
    SendSnapshot,
    SendDesign,
    SendDesignRef,
    Campaign,
    CampaignRecipient,
    CampaignWave,
    UnsubscribeLink,
    Automation,
    AutomationEcard,
    AutomationSend,
    AutomationZoneWatermark,
    IdempotencyKey,
    QuotaUsage,
    Suppression,
    SendSuspension,
    MailSinkMessage,
    GiftSettings,
    GiftRule,
    GiftSpend,
    GiftCode,
    GiftOrder,
    SimulatedProviderOrder,
    ConsoleSession,
    SignInSlot,
    WidgetCounter,
    WidgetAbuseEvent,
    WidgetSendWindow,
    WidgetVerification,
  };
}

export type Models = ReturnType<typeof createModels>;
