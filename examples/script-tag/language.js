/**
 * The example page's language switch (English, French, Arabic): sets the page's `lang` and `dir`, its own words,
 * and the widget's strings, from the language sets served beside the widget (`domainkit-fr.min.js`,
 * `domainkit-ar.min.js`; resolved against the widget's own URL, so they come from the same release). Prices
 * follow `lang` by themselves. The choice is kept in the address (`?lang=ar`), so a link or a reload keeps it, and
 * so is the hosted checkout's way back (the widget's `return-path` and `cancel-path`).
 */

/** The page's `lang`, `dir` and own words per language (the widget's words come from its language sets). */
const PAGES = {
  en: {
    lang: 'en-US',
    dir: 'ltr',
    title: 'Acme Domains · find the name for your next idea',
    navLabel: 'Main',
    navSearch: 'Search',
    navFeatured: 'Featured',
    navHow: 'How it works',
    languageLabel: 'Language',
    heroTitle: 'Find the name for your next idea',
    lead: 'Premium .com, .io and more, ready to buy today. Type a word you like and pick a name.',
    searchLabel: 'Search domains',
    searchPlaceholder: 'Try “coffee” or “studio”',
    featured: 'Featured domain',
    featuredText: 'Short, memorable, and brewed for a café chain, a roastery or a recipe blog.',
    buyFeatured: 'Buy coffeehouse.com',
    step1: 'Search.',
    step1Text: 'Results and prices come straight from the marketplace.',
    step2: 'Buy.',
    step2Text: "You pay on the marketplace's secure checkout page.",
    step3: 'Own it.',
    step3Text: 'The domain is transferred to you once payment clears.',
    footer: '© Acme Domains, an example partner site. Domain sales are processed by the marketplace.',
    brokerTitle: 'Want a name that isn’t for sale?',
    brokerText: 'Type it below: if its owner can be approached, our brokers will try to get it for you.',
  },
  fr: {
    lang: 'fr-FR',
    dir: 'ltr',
    title: 'Acme Domains · trouvez le nom de votre prochaine idée',
    navLabel: 'Principal',
    navSearch: 'Recherche',
    navFeatured: 'À la une',
    navHow: 'Comment ça marche',
    languageLabel: 'Langue',
    heroTitle: 'Trouvez le nom de votre prochaine idée',
    lead: 'Des .com, .io et plus encore, prêts à acheter aujourd’hui. Tapez un mot qui vous plaît et choisissez un nom.',
    searchLabel: 'Rechercher un domaine',
    searchPlaceholder: 'Essayez « coffee » ou « studio »',
    featured: 'Domaine à la une',
    featuredText: 'Court, mémorable, et taillé pour une chaîne de cafés, une brûlerie ou un blog de recettes.',
    buyFeatured: 'Acheter coffeehouse.com',
    step1: 'Cherchez.',
    step1Text: 'Résultats et prix viennent directement de la place de marché.',
    step2: 'Achetez.',
    step2Text: 'Vous payez sur la page de paiement sécurisée de la place de marché.',
    step3: 'Profitez-en.',
    step3Text: 'Le domaine vous est transféré dès le paiement encaissé.',
    brokerTitle: 'Vous voulez un nom qui n’est pas en vente ?',
    brokerText:
      'Saisissez-le ci-dessous : si son propriétaire peut être contacté, nos courtiers essaieront de l’obtenir pour vous.',
    footer:
      '© Acme Domains, un site partenaire d’exemple. Les ventes de domaines sont traitées par la place de marché.',
  },
  ar: {
    lang: 'ar',
    dir: 'rtl',
    title: 'Acme Domains · اعثر على اسم فكرتك القادمة',
    navLabel: 'الرئيسية',
    navSearch: 'البحث',
    navFeatured: 'مميز',
    navHow: 'كيف يعمل',
    languageLabel: 'اللغة',
    heroTitle: 'اعثر على اسم فكرتك القادمة',
    // .com and .io are isolated left to right (U+2066 … U+2069): unisolated, their dots land after the letters.
    lead: 'نطاقات \u2066.com\u2069 و\u2066.io\u2069 وغيرها، جاهزة للشراء اليوم. اكتب كلمة تعجبك واختر اسمًا.',
    searchLabel: 'ابحث عن نطاق',
    searchPlaceholder: 'جرّب «coffee» أو «studio»',
    featured: 'نطاق مميز',
    featuredText: 'قصير وسهل التذكر، ومناسب لسلسلة مقاهٍ أو محمصة أو مدونة وصفات.',
    buyFeatured: 'شراء coffeehouse.com',
    step1: 'ابحث.',
    step1Text: 'النتائج والأسعار تأتي مباشرة من السوق.',
    step2: 'اشترِ.',
    step2Text: 'تدفع على صفحة الدفع الآمنة للسوق.',
    step3: 'امتلكه.',
    step3Text: 'يُنقل النطاق إليك بمجرد تأكيد الدفع.',
    brokerTitle: 'تريد اسمًا غير معروض للبيع؟',
    brokerText: 'اكتبه أدناه: إن أمكن التواصل مع مالكه، سيحاول وسطاؤنا الحصول عليه لك.',
    footer: '© Acme Domains، موقع شريك للتجربة. تتولى السوق معالجة مبيعات النطاقات.',
  },
};

/** The widget's language set of each language (English is the widget's default: no file). */
const WIDGET_SETS = { fr: 'domainkit-fr.min.js', ar: 'domainkit-ar.min.js' };

const entry = document.querySelector('script[src*="domainkit.min.js"]');

/** Switches the page and every widget element to `code` (`en`, `fr` or `ar`). */
async function switchTo(code) {
  const page = PAGES[code] ?? PAGES.en;
  const file = WIDGET_SETS[code];
  const strings = file ? (await import(new URL(file, entry.src).href)).default : {};
  document.documentElement.lang = page.lang;
  document.documentElement.dir = page.dir;
  for (const el of document.querySelectorAll('[data-i18n]')) el.textContent = page[el.dataset.i18n];
  for (const el of document.querySelectorAll('[data-i18n-aria-label]'))
    el.setAttribute('aria-label', page[el.dataset.i18nAriaLabel]);
  for (const el of document.querySelectorAll('[data-i18n-label]')) el.setAttribute('label', page[el.dataset.i18nLabel]);
  for (const el of document.querySelectorAll('[data-i18n-placeholder]'))
    el.setAttribute('placeholder', page[el.dataset.i18nPlaceholder]);
  for (const el of document.querySelectorAll('dk-domain-search, dk-buy-button, dk-checkout-return'))
    el.strings = strings;
  // <dk-broker-button> carries its own English, French and Arabic: it follows `locale`.
  for (const el of document.querySelectorAll('dk-broker-button')) el.locale = page.lang;
  // The hosted checkout speaks the page's language (the widget sends it); it returns the buyer to this page in it
  // (with its result added to the query, which this script keeps).
  const back = code === 'en' ? null : `${location.pathname}?lang=${code}`;
  for (const el of document.querySelectorAll('dk-domain-search, dk-buy-button'))
    for (const name of ['return-path', 'cancel-path'])
      if (back) el.setAttribute(name, back);
      else el.removeAttribute(name);
  for (const button of document.querySelectorAll('[data-lang]'))
    button.setAttribute('aria-pressed', String(button.dataset.lang === code));
  const url = new URL(location.href);
  if (code === 'en') url.searchParams.delete('lang');
  else url.searchParams.set('lang', code);
  history.replaceState(history.state, '', url);
}

for (const button of document.querySelectorAll('[data-lang]')) {
  button.addEventListener('click', () => void switchTo(button.dataset.lang));
}
const asked = new URLSearchParams(location.search).get('lang');
if (asked && asked in PAGES) void switchTo(asked);
