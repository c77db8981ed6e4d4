/**
 * The words of the brokerage consent page (consent.ts) in English, French and Arabic, and how the page's language
 * is chosen. Where the widget already says the same thing (`<dk-broker-button>`'s strings, the purchase flow's
 * "busy" and the search's "check what you entered"), the page uses the widget's wording word for word, so a person
 * reads one voice whether the shop's page or an assistant brought them here; the rest is the page's own.
 */
import Negotiator from 'negotiator';

/** The languages the page speaks (primary language subtags, BCP 47). */
export const CONSENT_LANGUAGES = ['en', 'fr', 'ar'] as const;
/** One of {@link CONSENT_LANGUAGES}. */
export type ConsentLanguage = (typeof CONSENT_LANGUAGES)[number];

/** Every string the consent page shows. Functions take plain text (the page escapes and isolates it). */
export interface ConsentStrings {
  /** `<html lang>`, and the `locale` the brokers write to the person in. */
  readonly lang: ConsentLanguage;
  readonly dir: 'ltr' | 'rtl';
  /** The `Intl` locale amounts and numbers are written in. */
  readonly locale: string;
  /** The form's heading (widget `formTitle`). */
  readonly formTitle: (domain: string) => string;
  /** Who prepared the request, and that nothing happens before the person sends the form. */
  readonly prepared: (shop: string) => string;
  /** What the brokers do (widget `offerText`). */
  readonly offerText: (domain: string) => string;
  /** What the tier means for the person (widget `tierManaged` / `tierSelfServe`). */
  readonly tier: { readonly managed: string; readonly self_serve: string };
  /** The budget's label (widget `budgetLabel`); `currency` is the ISO code. */
  readonly budgetLabel: (currency: string) => string;
  /** When the person pays (the second sentence of widget `budgetHint`). */
  readonly payOnDeal: string;
  /** The e-mail field (widget `emailLabel`), and what it is for. */
  readonly emailLabel: string;
  readonly emailHint: string;
  /** The consent box (widget `consentLabel`). */
  readonly consentLabel: string;
  /** The submit button (widget `submit`). */
  readonly submit: string;
  /** How long the link still works, in whole minutes (at least 1). */
  readonly linkValidFor: (minutes: number) => string;
  /** Heading of the list of fields to fix (widget `validationError`). */
  readonly checkForm: string;
  /** A field error: the e-mail address (widget `badEmail`), the consent box (widget `needConsent`). */
  readonly badEmail: string;
  readonly needConsent: string;
  /** The shop cannot send the request now (purchase flow `rateLimitedFor`): whole seconds to wait. */
  readonly busy: (seconds: number) => string;
  /** The request failed and can be sent again (widget `failed`). */
  readonly failed: string;
  /** The form came from another page. */
  readonly forbidden: string;
  /** A link that cannot be used: altered or cut short; expired. */
  readonly linkInvalidTitle: string;
  readonly linkInvalid: string;
  readonly linkExpiredTitle: string;
  /** An expired link: how long a link works (whole minutes). */
  readonly linkExpired: (minutes: number) => string;
  /** What to do about such a link. */
  readonly askNewLink: string;
  /** Heading of a request the brokers cannot take. */
  readonly notSentTitle: string;
  /** Why not (widget `liveSite`, `openCase`, `notEligible`). */
  readonly liveSite: (domain: string) => string;
  readonly openCase: (domain: string) => string;
  readonly notEligible: (domain: string) => string;
  /** What to do instead. */
  readonly askAnother: string;
  /** A name listed for sale in the shop: heading, why (widget `listed`), where to buy it, or how without a page. */
  readonly listedTitle: string;
  readonly listed: (domain: string) => string;
  readonly buyAt: (shop: string) => string;
  readonly askCheckout: string;
  /** The case is open (widget `sentTitle`, `sentText`, `progressLink`). */
  readonly sentTitle: string;
  readonly sentText: (domain: string, email: string) => string;
  readonly progressLink: string;
}

const en: ConsentStrings = {
  lang: 'en',
  dir: 'ltr',
  locale: 'en-US',
  formTitle: (d) => `Ask our brokers for ${d}`,
  prepared: (shop) =>
    `An assistant prepared this request for you at ${shop}. Nothing is sent unless you send this form.`,
  offerText: (d) => `${d} isn't for sale here, but our brokers can contact its owner for you.`,
  tier: {
    managed: 'A broker negotiates with the owner for you.',
    self_serve: 'We contact the owner; you negotiate the price yourself.',
  },
  budgetLabel: (c) => `Your budget (${c})`,
  payOnDeal: 'You only pay if a deal is made.',
  emailLabel: 'Your e-mail address',
  emailHint: 'The brokers write to you there.',
  consentLabel: 'I agree to be contacted about this request.',
  submit: 'Send request',
  linkValidFor: (m) => `This link works for ${m === 1 ? '1 more minute' : `${m} more minutes`}.`,
  checkForm: 'Please check what you entered.',
  badEmail: 'Enter an e-mail address such as name@example.com.',
  needConsent: 'Tick the box so our brokers may contact you.',
  busy: (s) =>
    `Busy right now. Please try again in ${s < 90 ? `${s} second${s === 1 ? '' : 's'}` : `${Math.ceil(s / 60)} minutes`}.`,
  failed: 'The request could not be sent. Try again.',
  forbidden: "This form can only be sent from its own page: open the assistant's link again.",
  linkInvalidTitle: 'This link cannot be used',
  linkInvalid: 'It is incomplete or was changed. Nothing was sent.',
  linkExpiredTitle: 'This link has expired',
  linkExpired: (m) => `A consent link works for ${m} minutes. Nothing was sent.`,
  askNewLink: 'Ask the assistant for a new link.',
  notSentTitle: 'The request was not sent',
  liveSite: (d) =>
    `${d} is not available for acquisition: it runs a live site, so our brokers won't approach its owner.`,
  openCase: (d) => `Our brokers are already working on ${d}, so a new request can't be opened.`,
  notEligible: (d) => `${d} can't be acquired through our brokers.`,
  askAnother: 'Ask the assistant to look for another name.',
  listedTitle: 'No broker needed',
  listed: (d) => `${d} is for sale here: you can buy it now, no broker needed.`,
  buyAt: (shop) => `Buy it at ${shop}`,
  askCheckout: 'Ask the assistant for a checkout link to buy it.',
  sentTitle: 'Request sent',
  sentText: (d, e) => `Our brokers will contact you at ${e} about ${d}.`,
  progressLink: 'Follow your request',
};

const fr: ConsentStrings = {
  lang: 'fr',
  dir: 'ltr',
  locale: 'fr-FR',
  formTitle: (d) => `Demande à nos courtiers pour ${d}`,
  prepared: (shop) =>
    `Un assistant a préparé cette demande pour vous chez ${shop}. Rien n'est envoyé tant que vous n'envoyez pas ce formulaire.`,
  offerText: (d) => `${d} n'est pas en vente ici, mais nos courtiers peuvent contacter son propriétaire pour vous.`,
  tier: {
    managed: 'Un courtier négocie avec le propriétaire pour vous.',
    self_serve: 'Nous contactons le propriétaire ; vous négociez le prix vous-même.',
  },
  budgetLabel: (c) => `Votre budget (${c})`,
  payOnDeal: "Vous ne payez qu'en cas d'accord.",
  emailLabel: 'Votre adresse e-mail',
  emailHint: 'Les courtiers vous écrivent à cette adresse.',
  consentLabel: "J'accepte d'être contacté au sujet de cette demande.",
  submit: 'Envoyer la demande',
  linkValidFor: (m) => `Ce lien est encore valable ${m < 2 ? `${m} minute` : `${m} minutes`}.`,
  checkForm: 'Vérifiez ce que vous avez saisi.',
  badEmail: 'Saisissez une adresse e-mail comme nom@exemple.fr.',
  needConsent: 'Cochez la case pour que nos courtiers puissent vous contacter.',
  busy: (s) =>
    `Service occupé. Réessayez dans ${s < 90 ? `${s} seconde${s > 1 ? 's' : ''}` : `${Math.ceil(s / 60)} minutes`}.`,
  failed: "La demande n'a pas pu être envoyée. Réessayez.",
  forbidden: "Ce formulaire ne s'envoie que depuis sa propre page : rouvrez le lien de l'assistant.",
  linkInvalidTitle: 'Ce lien ne peut pas être utilisé',
  linkInvalid: "Il est incomplet ou a été modifié. Rien n'a été envoyé.",
  linkExpiredTitle: 'Ce lien a expiré',
  linkExpired: (m) => `Un lien de consentement est valable ${m} minutes. Rien n'a été envoyé.`,
  askNewLink: "Demandez un nouveau lien à l'assistant.",
  notSentTitle: "La demande n'a pas été envoyée",
  liveSite: (d) =>
    `${d} n'est pas disponible à l'acquisition : il héberge un site actif, nos courtiers n'en contacteront pas le propriétaire.`,
  openCase: (d) => `Nos courtiers travaillent déjà sur ${d} : une nouvelle demande n'est pas possible.`,
  notEligible: (d) => `${d} ne peut pas être acquis par nos courtiers.`,
  askAnother: "Demandez à l'assistant de chercher un autre nom.",
  listedTitle: 'Pas besoin de courtier',
  listed: (d) => `${d} est en vente ici : vous pouvez l'acheter tout de suite, sans courtier.`,
  buyAt: (shop) => `L'acheter chez ${shop}`,
  askCheckout: "Demandez à l'assistant un lien de paiement pour l'acheter.",
  sentTitle: 'Demande envoyée',
  sentText: (d, e) => `Nos courtiers vous contacteront à ${e} au sujet de ${d}.`,
  progressLink: 'Suivre votre demande',
};

const arNumber = (n: number): string => n.toLocaleString('ar');
const arPlural = new Intl.PluralRules('ar');

/** "n minutes" with Arabic's plural forms. */
function arMinutes(n: number): string {
  switch (arPlural.select(n)) {
    case 'one':
      return 'دقيقة واحدة';
    case 'two':
      return 'دقيقتين';
    case 'few':
      return `${arNumber(n)} دقائق`;
    default:
      return `${arNumber(n)} دقيقة`;
  }
}

const ar: ConsentStrings = {
  lang: 'ar',
  dir: 'rtl',
  locale: 'ar',
  formTitle: (d) => `طلب إلى وسطائنا بشأن ${d}`,
  prepared: (shop) => `أعدّ مساعدٌ هذا الطلب لك لدى ${shop}. لن يُرسل أي شيء ما لم ترسل هذا النموذج.`,
  offerText: (d) => `${d} غير معروض للبيع هنا، لكن وسطاءنا يستطيعون التواصل مع مالكه نيابةً عنك.`,
  tier: {
    managed: 'يتفاوض وسيط مع المالك نيابةً عنك.',
    self_serve: 'نتواصل مع المالك وتتفاوض أنت على السعر.',
  },
  budgetLabel: (c) => `ميزانيتك (${c})`,
  payOnDeal: 'لا تدفع إلا إذا تمّت الصفقة.',
  emailLabel: 'بريدك الإلكتروني',
  emailHint: 'يراسلك الوسطاء على هذا العنوان.',
  consentLabel: 'أوافق على التواصل معي بشأن هذا الطلب.',
  submit: 'إرسال الطلب',
  linkValidFor: (m) => `يبقى هذا الرابط صالحًا لمدة ${arMinutes(m)}.`,
  checkForm: 'يُرجى التحقق مما أدخلته.',
  badEmail: 'أدخل بريدًا إلكترونيًا مثل name@example.com.',
  needConsent: 'حدّد المربع ليتمكن وسطاؤنا من التواصل معك.',
  busy: (s) =>
    `الخدمة مشغولة الآن. يُرجى المحاولة بعد ${s < 90 ? `${arNumber(s)} ث` : `${arNumber(Math.ceil(s / 60))} د`}.`,
  failed: 'تعذّر إرسال الطلب. حاول مرة أخرى.',
  forbidden: 'لا يُرسل هذا النموذج إلا من صفحته: افتح رابط المساعد مرة أخرى.',
  linkInvalidTitle: 'لا يمكن استخدام هذا الرابط',
  linkInvalid: 'الرابط ناقص أو تم تعديله. لم يُرسل أي شيء.',
  linkExpiredTitle: 'انتهت صلاحية هذا الرابط',
  linkExpired: (m) => `يبقى رابط الموافقة صالحًا لمدة ${arMinutes(m)}. لم يُرسل أي شيء.`,
  askNewLink: 'اطلب من المساعد رابطًا جديدًا.',
  notSentTitle: 'لم يُرسل الطلب',
  liveSite: (d) => `${d} غير متاح للاستحواذ: يعمل عليه موقع نشط، لذلك لن يتواصل وسطاؤنا مع مالكه.`,
  openCase: (d) => `يعمل وسطاؤنا بالفعل على ${d}، لذا لا يمكن فتح طلب جديد.`,
  notEligible: (d) => `لا يمكن الاستحواذ على ${d} عبر وسطائنا.`,
  askAnother: 'اطلب من المساعد البحث عن اسم آخر.',
  listedTitle: 'لا حاجة إلى وسيط',
  listed: (d) => `${d} معروض للبيع هنا: يمكنك شراؤه الآن دون وسيط.`,
  buyAt: (shop) => `اشترِه من ${shop}`,
  askCheckout: 'اطلب من المساعد رابط دفع لشرائه.',
  sentTitle: 'تم إرسال الطلب',
  sentText: (d, e) => `سيتواصل معك وسطاؤنا على ${e} بشأن ${d}.`,
  progressLink: 'تابع طلبك',
};

/** The page's string sets by language. */
export const CONSENT_STRINGS: Readonly<Record<ConsentLanguage, ConsentStrings>> = { en, fr, ar };

/**
 * The page's language: the `lang` query parameter an agent may add to the link (a BCP 47 tag whose primary language
 * is one of {@link CONSENT_LANGUAGES}), else the best of them for the request's `Accept-Language` (RFC 9110 section
 * 12.5.4, quality values honoured), else English.
 */
export function consentStringsFor(lang: unknown, acceptLanguage: string | undefined): ConsentStrings {
  const asked = typeof lang === 'string' ? lang.split(/[-_]/)[0]!.toLowerCase() : '';
  if ((CONSENT_LANGUAGES as readonly string[]).includes(asked)) return CONSENT_STRINGS[asked as ConsentLanguage];
  const best =
    acceptLanguage === undefined
      ? undefined
      : new Negotiator({ headers: { 'accept-language': acceptLanguage.slice(0, 1000) } }).language([
          ...CONSENT_LANGUAGES,
        ]);
  return CONSENT_STRINGS[(best as ConsentLanguage | undefined) ?? 'en'];
}
