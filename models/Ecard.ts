// An eCard design; it always belongs to a widget of the same account.
import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { idColumn, timestamps } from './columns.ts';

/** How the card page opens: the envelope first (the default; any other stored value reads as it) or the card at once. */
export const ECARD_MODES = ['popup_card', 'classic'] as const;
export type EcardMode = (typeof ECARD_MODES)[number];
/** A new eCard's mode (the column's default). */
export const DEFAULT_ECARD_MODE: EcardMode = 'popup_card';
/** The mode a stored value reads as, everywhere it is shown or rendered: null (an eCard saved before the default, or cleared) and unknown values are the default. */
export const ecardModeOf = (stored: string | null | undefined): EcardMode => (stored === 'classic' ? 'classic' : DEFAULT_ECARD_MODE);
/** The envelope's look on the card page. */
export const ENVELOPE_THEMES = ['classic', 'modern', 'kraft', 'night'] as const;

export function defineEcard(sequelize: Sequelize) {
  class Ecard extends Model<InferAttributes<Ecard>, InferCreationAttributes<Ecard>> {
    declare id: CreationOptional<number>;
    declare account_id: number;
    declare widget_id: number;
    declare vanity_id: string;
    declare name: string;
    declare email_subject: string | null;
    declare header: string | null;
    declare details: string | null;
    declare ecard_link: string | null;
    declare url_redirect_after_send: string | null;
    declare disabled: CreationOptional<boolean>;
    declare can_schedule: CreationOptional<boolean>;
    declare ecardbrandid: number | null;
    declare ecard_mode: CreationOptional<string | null>;
    declare envelope_bg_image_url: string | null;
    declare envelope_audio_url: string | null;
    declare envelope_video_url: string | null;
    declare envelope_color_settings: string | null;
    declare envelope_auto_open: CreationOptional<boolean>;
    declare envelope_confetti: CreationOptional<boolean>;
    /** `classic` (the default), `modern`, `kraft` or `night`. */
    declare envelope_theme: CreationOptional<string>;
    declare envelope_audio_repeat: CreationOptional<boolean>;
    /** The call-to-action's label (the API's `ecardLinkAltText`). */
    declare ecard_link_alt_text: CreationOptional<string | null>;
    declare thumbnail_alt_label: CreationOptional<string | null>;
    declare og_title: CreationOptional<string | null>;
    declare og_description: CreationOptional<string | null>;
    declare self_hosted_url: string | null;
    // The widget form's fields: a personal message box, a predefined send time (offered, or forced), and the
    // window in which the gallery shows the eCard (null = open-ended).
    declare personal_message_box: CreationOptional<boolean>;
    declare predefined_schedule_on: CreationOptional<boolean>;
    declare predefined_schedule_forced: CreationOptional<boolean>;
    declare predefined_schedule: CreationOptional<Date | null>;
    declare publish_on: CreationOptional<Date | null>;
    declare expire_on: CreationOptional<Date | null>;
    /** The media file name of the 480 px WebP thumbnail of an uploaded image (the API answers `thumb_image`, its URL). */
    declare thumb_file: CreationOptional<string | null>;
    declare display_order: CreationOptional<number>;
    /** The eCard this one was copied from into a campaign's widget (the campaigns usage check). */
    declare source_ecard_id: CreationOptional<number | null>;
    /** DECIMAL comes back as a string from MySQL: read through `priceOf`. */
    declare price: string | number | null;
    declare created_at: CreationOptional<Date>;
    declare updated_at: CreationOptional<Date>;
  }
  const text = (length: number) => ({ type: DataTypes.STRING(length), allowNull: true });
  const flag = (defaultValue: boolean) => ({ type: DataTypes.BOOLEAN, allowNull: false, defaultValue });
  Ecard.init(
    {
      id: idColumn(),
      account_id: { type: DataTypes.INTEGER, allowNull: false },
      widget_id: { type: DataTypes.INTEGER, allowNull: false },
      source_ecard_id: { type: DataTypes.INTEGER, allowNull: true },
      vanity_id: { type: DataTypes.STRING(32).BINARY, allowNull: false },
      name: { type: DataTypes.STRING(200), allowNull: false },
      email_subject: text(500),
      header: text(500),
      details: { type: DataTypes.TEXT, allowNull: true },
      ecard_link: text(2048),
      url_redirect_after_send: text(2048),
      disabled: flag(false),
      can_schedule: flag(true),
      ecardbrandid: { type: DataTypes.INTEGER, allowNull: true },
      ecard_mode: { type: DataTypes.STRING(50), allowNull: true, defaultValue: DEFAULT_ECARD_MODE },
      envelope_bg_image_url: text(2048),
      envelope_audio_url: text(2048),
      envelope_video_url: text(2048),
      envelope_color_settings: { type: DataTypes.TEXT, allowNull: true },
      envelope_auto_open: flag(false),
      envelope_confetti: flag(false),
      envelope_theme: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'classic' },
      envelope_audio_repeat: flag(false),
      ecard_link_alt_text: text(100),
      thumbnail_alt_label: text(200),
      og_title: text(100),
      og_description: text(300),
      self_hosted_url: text(2048),
      personal_message_box: flag(true),
      predefined_schedule_on: flag(false),
      predefined_schedule_forced: flag(false),
      predefined_schedule: { type: DataTypes.DATE(3), allowNull: true },
      publish_on: { type: DataTypes.DATE(3), allowNull: true },
      expire_on: { type: DataTypes.DATE(3), allowNull: true },
      thumb_file: text(64),
      display_order: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      price: { type: DataTypes.DECIMAL(10, 2), allowNull: true },
      ...timestamps(),
    },
    { sequelize, tableName: 'ecards', modelName: 'Ecard' },
  );
  return Ecard;
}

export type EcardModel = ReturnType<typeof defineEcard>;
export type Ecard = InstanceType<EcardModel>;

export function priceOf(ecard: Pick<Ecard, 'price'>): number | null {
  return ecard.price === null ? null : Number(ecard.price);
}
