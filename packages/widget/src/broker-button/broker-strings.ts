/**
 * The strings of `<dk-broker-button>` in English, French and Arabic. The element picks the set of the nearest `lang`
 * (`fr…`, `ar…`, else English); its `strings` property replaces any of them. Amounts are passed in formatted.
 */

/** Every string `<dk-broker-button>` shows or announces. */
export interface DkBrokerStrings {
  /** Label of the name field (no `domain` attribute). */
  readonly askLabel: string;
  /** The button that checks the typed name. */
  readonly check: string;
  /** Shown (and announced) while eligibility is checked. */
  readonly checking: (domain: string) => string;
  /** A name that runs a live site: its owner is not approached. */
  readonly liveSite: (domain: string) => string;
  /** A name listed in this shop: buy it instead. */
  readonly listed: (domain: string) => string;
  /** A name the brokers already work on. */
  readonly openCase: (domain: string) => string;
  /** Any other reason the marketplace gives. */
  readonly notEligible: (domain: string) => string;
  /** What to do instead when a name cannot be brokered (with a name field). */
  readonly tryAnother: string;
  /** An eligible name: why it is offered. */
  readonly offerText: (domain: string) => string;
  /** The offer's button. */
  readonly offer: string;
  /** Title of the form. */
  readonly formTitle: (domain: string) => string;
  /** The e-mail field. */
  readonly emailLabel: string;
  /** The budget field; `currency` is the ISO code. */
  readonly budgetLabel: (currency: string) => string;
  /** Under the budget field: the smallest budget, formatted. */
  readonly budgetHint: (minimum: string) => string;
  /** The consent checkbox. */
  readonly consentLabel: string;
  /** What the tier means for the buyer (`managed`). */
  readonly tierManaged: string;
  /** What the tier means for the buyer (`self_serve`). */
  readonly tierSelfServe: string;
  /** The form's submit button. */
  readonly submit: string;
  /** Closes the form. */
  readonly cancel: string;
  /** An e-mail address that cannot be used. */
  readonly badEmail: string;
  /** A budget under the minimum (formatted). */
  readonly badBudget: (minimum: string) => string;
  /** A budget that is not an amount in figures (`example`: 1,500.50 as the visitor's language writes it). */
  readonly badBudgetFigures: (example: string) => string;
  /** A budget over the largest one taken (formatted). */
  readonly badBudgetHigh: (maximum: string) => string;
  /** The consent box is not ticked. */
  readonly needConsent: string;
  /** Heading once the case is open. */
  readonly sentTitle: string;
  /** Once the case is open: who contacts the buyer. */
  readonly sentText: (domain: string, email: string) => string;
  /** The progress link. */
  readonly progressLink: string;
  /** Announced when the progress link opens in a new tab. */
  readonly newTab: string;
  /** A request that failed and can be sent again. */
  readonly failed: string;
  /** A request the shop refused for its input. */
  readonly refused: string;
  /** The button that sends a failed request again. */
  readonly retry: string;
  /** Brokerage is not offered by this shop (its BFF has it off). */
  readonly unavailable: string;
}

/** The English strings. */
export const brokerStringsEn: DkBrokerStrings = {
  askLabel: 'Domain name you want',
  check: 'Check',
  checking: (d) => `Checking ${d}…`,
  liveSite: (d) =>
    `${d} is not available for acquisition: it runs a live site, so our brokers won't approach its owner.`,
  listed: (d) => `${d} is for sale here: you can buy it now, no broker needed.`,
  openCase: (d) => `Our brokers are already working on ${d}, so a new request can't be opened.`,
  notEligible: (d) => `${d} can't be acquired through our brokers.`,
  tryAnother: 'Try another name above.',
  offerText: (d) => `${d} isn't for sale here, but our brokers can contact its owner for you.`,
  offer: 'Ask our brokers to get it for you',
  formTitle: (d) => `Ask our brokers for ${d}`,
  emailLabel: 'Your e-mail address',
  budgetLabel: (c) => `Your budget (${c})`,
  budgetHint: (m) => `At least ${m}. You only pay if a deal is made.`,
  consentLabel: 'I agree to be contacted about this request.',
  tierManaged: 'A broker negotiates with the owner for you.',
  tierSelfServe: 'We contact the owner; you negotiate the price yourself.',
  submit: 'Send request',
  cancel: 'Cancel',
  badEmail: 'Enter an e-mail address such as name@example.com.',
  badBudget: (m) => `Enter a budget of at least ${m}.`,
  badBudgetFigures: (x) => `Enter the budget in figures, such as ${x}.`,
  badBudgetHigh: (m) => `Enter a budget of at most ${m}.`,
  needConsent: 'Tick the box so our brokers may contact you.',
  sentTitle: 'Request sent',
  sentText: (d, e) => `Our brokers will contact you at ${e} about ${d}.`,
  progressLink: 'Follow your request',
  newTab: '(opens in a new tab)',
  failed: 'The request could not be sent. Try again.',
  refused: 'The request was refused. Check the form and try again.',
  retry: 'Try again',
  unavailable: 'Brokerage is not offered here.',
};

/** The French strings. */
export const brokerStringsFr: DkBrokerStrings = {
  askLabel: 'Nom de domaine souhaité',
  check: 'Vérifier',
  checking: (d) => `Vérification de ${d}…`,
  liveSite: (d) =>
    `${d} n'est pas disponible à l'acquisition : il héberge un site actif, nos courtiers n'en contacteront pas le propriétaire.`,
  listed: (d) => `${d} est en vente ici : vous pouvez l'acheter tout de suite, sans courtier.`,
  openCase: (d) => `Nos courtiers travaillent déjà sur ${d} : une nouvelle demande n'est pas possible.`,
  notEligible: (d) => `${d} ne peut pas être acquis par nos courtiers.`,
  tryAnother: 'Essayez un autre nom ci-dessus.',
  offerText: (d) => `${d} n'est pas en vente ici, mais nos courtiers peuvent contacter son propriétaire pour vous.`,
  offer: 'Demandez à nos courtiers de l’obtenir pour vous',
  formTitle: (d) => `Demande à nos courtiers pour ${d}`,
  emailLabel: 'Votre adresse e-mail',
  budgetLabel: (c) => `Votre budget (${c})`,
  budgetHint: (m) => `Au moins ${m}. Vous ne payez qu'en cas d'accord.`,
  consentLabel: "J'accepte d'être contacté au sujet de cette demande.",
  tierManaged: 'Un courtier négocie avec le propriétaire pour vous.',
  tierSelfServe: 'Nous contactons le propriétaire ; vous négociez le prix vous-même.',
  submit: 'Envoyer la demande',
  cancel: 'Annuler',
  badEmail: 'Saisissez une adresse e-mail comme nom@exemple.fr.',
  badBudget: (m) => `Saisissez un budget d'au moins ${m}.`,
  badBudgetFigures: (x) => `Saisissez le budget en chiffres, par exemple ${x}.`,
  badBudgetHigh: (m) => `Saisissez un budget d'au plus ${m}.`,
  needConsent: 'Cochez la case pour que nos courtiers puissent vous contacter.',
  sentTitle: 'Demande envoyée',
  sentText: (d, e) => `Nos courtiers vous contacteront à ${e} au sujet de ${d}.`,
  progressLink: 'Suivre votre demande',
  newTab: '(s’ouvre dans un nouvel onglet)',
  failed: "La demande n'a pas pu être envoyée. Réessayez.",
  refused: 'La demande a été refusée. Vérifiez le formulaire et réessayez.',
  retry: 'Réessayer',
  unavailable: "Le courtage n'est pas proposé ici.",
};

/** The Arabic strings. */
export const brokerStringsAr: DkBrokerStrings = {
  askLabel: 'اسم النطاق الذي تريده',
  check: 'تحقّق',
  checking: (d) => `جارٍ التحقق من ${d}…`,
  liveSite: (d) => `${d} غير متاح للاستحواذ: يعمل عليه موقع نشط، لذلك لن يتواصل وسطاؤنا مع مالكه.`,
  listed: (d) => `${d} معروض للبيع هنا: يمكنك شراؤه الآن دون وسيط.`,
  openCase: (d) => `يعمل وسطاؤنا بالفعل على ${d}، لذا لا يمكن فتح طلب جديد.`,
  notEligible: (d) => `لا يمكن الاستحواذ على ${d} عبر وسطائنا.`,
  tryAnother: 'جرّب اسمًا آخر في الأعلى.',
  offerText: (d) => `${d} غير معروض للبيع هنا، لكن وسطاءنا يستطيعون التواصل مع مالكه نيابةً عنك.`,
  offer: 'اطلب من وسطائنا الحصول عليه لك',
  formTitle: (d) => `طلب إلى وسطائنا بشأن ${d}`,
  emailLabel: 'بريدك الإلكتروني',
  budgetLabel: (c) => `ميزانيتك (${c})`,
  budgetHint: (m) => `لا تقل عن ${m}. لا تدفع إلا إذا تمّت الصفقة.`,
  consentLabel: 'أوافق على التواصل معي بشأن هذا الطلب.',
  tierManaged: 'يتفاوض وسيط مع المالك نيابةً عنك.',
  tierSelfServe: 'نتواصل مع المالك وتتفاوض أنت على السعر.',
  submit: 'إرسال الطلب',
  cancel: 'إلغاء',
  badEmail: 'أدخل بريدًا إلكترونيًا مثل name@example.com.',
  badBudget: (m) => `أدخل ميزانية لا تقل عن ${m}.`,
  badBudgetFigures: (x) => `أدخل الميزانية بالأرقام، مثل ${x}.`,
  badBudgetHigh: (m) => `أدخل ميزانية لا تزيد عن ${m}.`,
  needConsent: 'حدّد المربع ليتمكن وسطاؤنا من التواصل معك.',
  sentTitle: 'تم إرسال الطلب',
  sentText: (d, e) => `سيتواصل معك وسطاؤنا على ${e} بشأن ${d}.`,
  progressLink: 'تابع طلبك',
  newTab: '(يُفتح في علامة تبويب جديدة)',
  failed: 'تعذّر إرسال الطلب. حاول مرة أخرى.',
  refused: 'رُفض الطلب. راجع النموذج وحاول مرة أخرى.',
  retry: 'حاول مرة أخرى',
  unavailable: 'خدمة الوساطة غير متاحة هنا.',
};

/** The set for a language tag: French for `fr…`, Arabic for `ar…`, else English. */
export function brokerStringsFor(lang: string | undefined): DkBrokerStrings {
  const primary = (lang ?? '').toLowerCase().split('-')[0];
  return primary === 'fr' ? brokerStringsFr : primary === 'ar' ? brokerStringsAr : brokerStringsEn;
}
