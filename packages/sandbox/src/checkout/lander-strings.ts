/**
 * The hosted lander's words in the languages it speaks: English (the default), French and Arabic (right to left).
 * The page's language is the best match of the buyer's `Accept-Language` (RFC 9110 section 12.5.4) among them; any
 * other language gets English. Test-card numbers, prices and the domain stay left to right inside any sentence
 * (they are isolated with `<bdi>` where they sit in text).
 */
import type { Request } from 'express';
import { type CardFormMessages, ENGLISH_CARD_FORM } from './test-cards.ts';

/** A language of the lander. */
export type LanderLanguage = 'en' | 'fr' | 'ar';

/** Every visitor-visible word of the lander's pages, in one language. Values are plain text (escaped on use). */
export interface LanderStrings {
  readonly lang: LanderLanguage;
  /** `rtl` for Arabic. */
  readonly dir: 'ltr' | 'rtl';
  /** BCP 47 locale for prices. */
  readonly locale: string;
  readonly brand: string;
  readonly badge: string;
  readonly buyTitle: (domain: string) => string;
  readonly youAreBuying: string;
  readonly declined: (domain: string) => string;
  readonly cardNumber: string;
  readonly expiry: string;
  readonly cvc: string;
  readonly nameOnCard: string;
  readonly pay: string;
  /** The Pay button with the amount, e.g. "Pay $2,500.00". */
  readonly payAmount: (price: string) => string;
  /** The e-mail field's label and the hint under it (what the address is for). */
  readonly email: string;
  readonly emailHint: string;
  /** The test-card hint around the two numbers: `[before, between, after]`. */
  readonly testCards: readonly [string, string, string];
  readonly cancelLink: string;
  readonly returnLink: string;
  /** The cancel and return links naming the partner's shop. */
  readonly cancelTo: (shop: string) => string;
  readonly returnTo: (shop: string) => string;
  /** The receipt's automatic return (said once the countdown starts), its Stay button, and once stopped. */
  readonly autoReturn: (shop: string, seconds: number) => string;
  readonly stay: string;
  readonly stayed: (shop: string) => string;
  /** Where the receipt and the transfer instructions go. */
  readonly receiptTo: (email: string) => string;
  readonly paymentReceived: string;
  readonly paidTitle: (domain: string) => string;
  /** Around `price` paid: `[before, after]`. */
  readonly paid: readonly [string, string];
  readonly receipt: string;
  readonly linkExpiredTitle: string;
  readonly linkExpiredMessage: string;
  readonly linkInvalidTitle: string;
  /** Localized reasons of a refused `pt` token; without them (English) the token check's own sentence is shown. */
  readonly tokenProblem?: { readonly malformed: string; readonly forged: string; readonly expired: string };
  readonly notFoundTitle: string;
  readonly notFoundMessage: string;
  readonly soldTitle: string;
  readonly soldMessage: (domain: string) => string;
  readonly formUnreadableTitle: string;
  readonly brokenLinkTitle: string;
  readonly errorTitle: string;
  readonly errorMessage: (reference: string) => string;
  readonly testCardsOnly: string;
  /** Card-form problems (the form is shown again with them). */
  readonly form: CardFormMessages;
}

const en: LanderStrings = {
  lang: 'en',
  dir: 'ltr',
  locale: 'en-US',
  brand: 'Marketplace checkout',
  badge: 'Sandbox: test cards only',
  buyTitle: (domain) => `Buy ${domain}`,
  youAreBuying: 'You are buying',
  declined: (domain) =>
    `Your card was declined. No payment was taken and ${domain} is still available: try another card.`,
  cardNumber: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvc: 'CVC',
  nameOnCard: 'Name on card',
  pay: 'Pay',
  payAmount: (price) => `Pay ${price}`,
  email: 'Email',
  emailHint: 'Your receipt and the transfer instructions go to this address.',
  testCards: ['Test cards: ', ' succeeds, ', ' is declined. Any future expiry, any CVC.'],
  cancelLink: 'Cancel and return to the site you came from',
  returnLink: 'Return to the site you came from',
  cancelTo: (shop) => `Cancel and return to ${shop}`,
  returnTo: (shop) => `Return to ${shop}`,
  autoReturn: (shop, seconds) => `Returning you to ${shop} in ${seconds} seconds.`,
  stay: 'Stay on this page',
  stayed: (shop) => `Staying on this page. Return to ${shop} when you are ready.`,
  receiptTo: (email) => `Your receipt and the transfer instructions are on their way to ${email}.`,
  paymentReceived: 'Payment received',
  paidTitle: (domain) => `Payment received: ${domain}`,
  paid: ['Paid ', '. The domain is yours.'],
  receipt: 'Receipt',
  linkExpiredTitle: 'This checkout link has expired',
  linkExpiredMessage: 'Checkout links are valid for 7 days. Ask the site you came from for a new one.',
  linkInvalidTitle: 'This checkout link is not valid',
  notFoundTitle: 'Checkout not found',
  notFoundMessage: 'This checkout session does not exist (any more). Ask the site you came from for a new link.',
  soldTitle: 'This domain is no longer available',
  soldMessage: (domain) => `${domain} was sold to another buyer before this payment. You have not been charged.`,
  formUnreadableTitle: 'The payment form could not be read',
  brokenLinkTitle: 'This link is not valid',
  errorTitle: 'Something went wrong',
  errorMessage: (reference) => `No payment was taken. Please try again. (Reference ${reference})`,
  testCardsOnly: 'This sandbox takes test cards only: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.',
  form: ENGLISH_CARD_FORM,
};

const fr: LanderStrings = {
  lang: 'fr',
  dir: 'ltr',
  locale: 'fr-FR',
  brand: 'Paiement de la place de marché',
  badge: 'Bac à sable : cartes de test uniquement',
  buyTitle: (domain) => `Acheter ${domain}`,
  youAreBuying: 'Vous achetez',
  declined: (domain) =>
    `Votre carte a été refusée. Aucun paiement n’a été pris et ${domain} est toujours disponible : essayez une autre carte.`,
  cardNumber: 'Numéro de carte',
  expiry: 'Expiration (MM/AA)',
  cvc: 'Cryptogramme',
  nameOnCard: 'Nom sur la carte',
  pay: 'Payer',
  payAmount: (price) => `Payer ${price}`,
  email: 'E-mail',
  emailHint: 'Votre reçu et les instructions de transfert seront envoyés à cette adresse.',
  testCards: ['Cartes de test : ', ' est acceptée, ', ' est refusée. Toute date future, tout cryptogramme.'],
  cancelLink: 'Annuler et revenir sur le site d’origine',
  returnLink: 'Revenir sur le site d’origine',
  cancelTo: (shop) => `Annuler et revenir sur ${shop}`,
  returnTo: (shop) => `Revenir sur ${shop}`,
  autoReturn: (shop, seconds) => `Retour sur ${shop} dans ${seconds} secondes.`,
  stay: 'Rester sur cette page',
  stayed: (shop) => `Vous restez sur cette page. Revenez sur ${shop} quand vous le souhaitez.`,
  receiptTo: (email) => `Votre reçu et les instructions de transfert sont envoyés à ${email}.`,
  paymentReceived: 'Paiement reçu',
  paidTitle: (domain) => `Paiement reçu : ${domain}`,
  paid: ['Payé ', '. Le domaine est à vous.'],
  receipt: 'Reçu',
  linkExpiredTitle: 'Ce lien de paiement a expiré',
  linkExpiredMessage: 'Les liens de paiement sont valables 7 jours. Demandez-en un nouveau au site d’origine.',
  linkInvalidTitle: 'Ce lien de paiement n’est pas valide',
  tokenProblem: {
    malformed: 'Ce lien de paiement est incomplet : ouvrez le lien reçu, sans le modifier.',
    forged: 'Ce lien de paiement n’a pas été émis par la place de marché, ou il a été modifié.',
    expired: 'Les liens de paiement sont valables 7 jours. Demandez-en un nouveau au site d’origine.',
  },
  notFoundTitle: 'Paiement introuvable',
  notFoundMessage: 'Cette session de paiement n’existe pas (ou plus). Demandez un nouveau lien au site d’origine.',
  soldTitle: 'Ce domaine n’est plus disponible',
  soldMessage: (domain) => `${domain} a été vendu à un autre acheteur avant ce paiement. Rien ne vous a été débité.`,
  formUnreadableTitle: 'Le formulaire de paiement est illisible',
  brokenLinkTitle: 'Ce lien n’est pas valide',
  errorTitle: 'Une erreur est survenue',
  errorMessage: (reference) => `Aucun paiement n’a été pris. Veuillez réessayer. (Référence ${reference})`,
  testCardsOnly:
    'Ce bac à sable n’accepte que les cartes de test : 4242 4242 4242 4242 est acceptée, 4000 0000 0000 0002 est refusée.',
  form: {
    cardNumber: 'Saisissez le numéro de carte.',
    cardNumberDigits: 'Saisissez le numéro de carte : 12 à 19 chiffres.',
    expiry: 'Saisissez la date d’expiration au format MM/AA.',
    expired: 'La carte a expiré : utilisez une date d’expiration future.',
    cvc: 'Saisissez le cryptogramme.',
    cvcDigits: 'Saisissez le cryptogramme : 3 ou 4 chiffres.',
    name: 'Saisissez le nom sur la carte.',
    nameTooLong: 'Le nom sur la carte fait au plus 100 caractères.',
    email: 'Saisissez votre adresse e-mail : votre reçu y sera envoyé.',
    emailInvalid: 'Saisissez une adresse e-mail complète, par exemple nom@exemple.fr.',
  },
};

const ar: LanderStrings = {
  lang: 'ar',
  dir: 'rtl',
  locale: 'ar',
  brand: 'الدفع في السوق',
  badge: 'بيئة تجريبية: بطاقات الاختبار فقط',
  buyTitle: (domain) => `شراء ${domain}`,
  youAreBuying: 'أنت تشتري',
  declined: (domain) => `رُفضت بطاقتك. لم يُخصم أي مبلغ وما زال ${domain} متاحًا: جرّب بطاقة أخرى.`,
  cardNumber: 'رقم البطاقة',
  expiry: 'تاريخ الانتهاء (MM/YY)',
  cvc: 'رمز التحقق',
  nameOnCard: 'الاسم على البطاقة',
  pay: 'ادفع',
  payAmount: (price) => `ادفع ${price}`,
  email: 'البريد الإلكتروني',
  emailHint: 'يُرسل الإيصال وتعليمات النقل إلى هذا العنوان.',
  testCards: ['بطاقات الاختبار: ', ' تنجح، ', ' تُرفض. أي تاريخ انتهاء مستقبلي وأي رمز تحقق.'],
  cancelLink: 'إلغاء والعودة إلى الموقع الذي جئت منه',
  returnLink: 'العودة إلى الموقع الذي جئت منه',
  cancelTo: (shop) => `إلغاء والعودة إلى ${shop}`,
  returnTo: (shop) => `العودة إلى ${shop}`,
  autoReturn: (shop, seconds) => `ستعود إلى ${shop} خلال ${seconds} ثوانٍ.`,
  stay: 'البقاء في هذه الصفحة',
  stayed: (shop) => `ستبقى في هذه الصفحة. عُد إلى ${shop} متى شئت.`,
  receiptTo: (email) => `الإيصال وتعليمات النقل في طريقها إلى ${email}.`,
  paymentReceived: 'تم استلام الدفعة',
  paidTitle: (domain) => `تم استلام الدفعة: ${domain}`,
  paid: ['دُفع ', '. النطاق لك الآن.'],
  receipt: 'الإيصال',
  linkExpiredTitle: 'انتهت صلاحية رابط الدفع هذا',
  linkExpiredMessage: 'روابط الدفع صالحة لمدة 7 أيام. اطلب رابطًا جديدًا من الموقع الذي جئت منه.',
  linkInvalidTitle: 'رابط الدفع هذا غير صالح',
  tokenProblem: {
    malformed: 'رابط الدفع هذا غير مكتمل: افتح الرابط الذي وصلك دون تعديله.',
    forged: 'رابط الدفع هذا لم يصدر عن السوق، أو تم تعديله.',
    expired: 'روابط الدفع صالحة لمدة 7 أيام. اطلب رابطًا جديدًا من الموقع الذي جئت منه.',
  },
  notFoundTitle: 'عملية الدفع غير موجودة',
  notFoundMessage: 'جلسة الدفع هذه غير موجودة (أو لم تعد موجودة). اطلب رابطًا جديدًا من الموقع الذي جئت منه.',
  soldTitle: 'هذا النطاق لم يعد متاحًا',
  soldMessage: (domain) => `بيع ${domain} لمشترٍ آخر قبل هذه الدفعة. لم يُخصم منك أي مبلغ.`,
  formUnreadableTitle: 'تعذّرت قراءة نموذج الدفع',
  brokenLinkTitle: 'هذا الرابط غير صالح',
  errorTitle: 'حدث خطأ ما',
  errorMessage: (reference) => `لم يُخصم أي مبلغ. يُرجى المحاولة مرة أخرى. (المرجع ${reference})`,
  testCardsOnly: 'تقبل هذه البيئة التجريبية بطاقات الاختبار فقط: 4242 4242 4242 4242 تنجح، 4000 0000 0000 0002 تُرفض.',
  form: {
    cardNumber: 'أدخل رقم البطاقة.',
    cardNumberDigits: 'أدخل رقم البطاقة: من 12 إلى 19 رقمًا.',
    expiry: 'أدخل تاريخ الانتهاء بالصيغة MM/YY.',
    expired: 'انتهت صلاحية البطاقة: استخدم تاريخ انتهاء مستقبليًا.',
    cvc: 'أدخل رمز التحقق.',
    cvcDigits: 'أدخل رمز التحقق: 3 أو 4 أرقام.',
    name: 'أدخل الاسم على البطاقة.',
    nameTooLong: 'الاسم على البطاقة 100 حرف على الأكثر.',
    email: 'أدخل بريدك الإلكتروني: يُرسل إليه الإيصال.',
    emailInvalid: 'أدخل عنوان بريد إلكتروني كاملًا، مثل name@example.com.',
  },
};

/** The lander's string sets by language. */
export const LANDER_STRINGS: Readonly<Record<LanderLanguage, LanderStrings>> = { en, fr, ar };

/**
 * The strings for `req`: the language of the partner page the session was opened from (`locale`, a BCP 47 tag whose
 * primary language is English, French or Arabic), else the best of the three for the request's `Accept-Language`
 * (quality values honoured; no header, or none of the three, gives English).
 */
export function landerStrings(req: Request, locale?: string | null): LanderStrings {
  const page = locale?.split('-')[0]?.toLowerCase();
  if (page && page in LANDER_STRINGS) return LANDER_STRINGS[page as LanderLanguage];
  const best = req.acceptsLanguages('en', 'fr', 'ar');
  return LANDER_STRINGS[(best || 'en') as LanderLanguage] ?? en;
}
