/**
 * Arabic strings of the widget, a complete {@link DkStrings} (an example set: review it with your own translator).
 * Not part of the script-tag entry: npm `@domainkit/widget/strings/ar`, script tag `domainkit-ar.min.js` beside
 * `domainkit.min.js`. Use: `element.strings = ar`, with `lang="ar" dir="rtl"` on the page (prices follow `lang`).
 * Numbers are written with the `ar` locale's digits, as `Intl` writes the prices.
 */
import type { DkStrings } from '../strings.ts';

const number = (n: number): string => n.toLocaleString('ar');
const plural = new Intl.PluralRules('ar');

/** How many domains were found, with Arabic's six plural forms. */
function found(count: number): string {
  switch (plural.select(count)) {
    case 'zero':
      return 'لم يُعثر على أي نطاق';
    case 'one':
      return 'تم العثور على نطاق واحد';
    case 'two':
      return 'تم العثور على نطاقين';
    case 'few':
      return `تم العثور على ${number(count)} نطاقات`;
    case 'many':
      return `تم العثور على ${number(count)} نطاقًا`;
    default:
      return `تم العثور على ${number(count)} نطاق`;
  }
}

/** How many recent searches are listed, with Arabic's plural forms. */
function recent(count: number): string {
  switch (plural.select(count)) {
    case 'one':
      return 'عملية بحث أخيرة واحدة';
    case 'two':
      return 'عمليتا بحث أخيرتان';
    case 'few':
      return `${number(count)} عمليات بحث أخيرة`;
    default:
      return `${number(count)} عملية بحث أخيرة`;
  }
}

/** The widget's strings in Arabic. */
export const ar: DkStrings = {
  searchLabel: 'ابحث عن اسم نطاقك',
  searchPlaceholder: 'جرّب «coffee» أو «studio»',
  resultsLabel: 'النطاقات المطابقة',
  searching: 'جارٍ البحث…',
  tooShort: (min) => `اكتب ${number(min)} أحرف على الأقل للبحث.`,
  resultCount: found,
  noResults: (query) => `لا توجد نطاقات تطابق «${query}».`,
  available: 'متاح',
  unavailable: 'محجوز',
  retry: 'إعادة المحاولة',
  buy: 'شراء',
  buyDomain: (domain) => `شراء ${domain}`,
  siblingsTitle: 'متاح أيضًا',
  siblingRegistration: 'غير مسجَّل بعد: يمكن لأي مسجِّل نطاقات تسجيله',
  siblingListing: 'معروض للبيع في السوق',
  verdictListed: (domain) => `${domain} معروض للبيع هنا: اشترِه الآن.`,
  verdictForSale: (domain) => `${domain} معروض للبيع.`,
  verdictTaken: (domain) => `${domain} محجوز: سجّله شخص آخر، وهو غير معروض للبيع هنا.`,
  verdictUnregistered: (domain) =>
    `لم يسجّل أحد ${domain} بعد. لا يستطيع هذا المتجر بيعه: يمكن لأي مسجِّل نطاقات تسجيله لك.`,
  verdictUnlisted: (domain) => `${domain} غير معروض هنا.`,
  verdictAlternatives: 'يمكن شراء هذه النطاقات الآن:',
  verdictSimilar: 'نطاقات مشابهة:',
  whoisButton: 'من يملكه؟',
  whoisLoading: 'جارٍ البحث…',
  whoisHeld: (registrar, date) => (date ? `مسجَّل لدى ${registrar} منذ ${date}.` : `مسجَّل لدى ${registrar}.`),
  whoisPrivate: 'لا يذكر سجلّه العام اسم المسجِّل.',
  closeSearch: 'إغلاق',
  recentSearches: 'عمليات البحث الأخيرة',
  clearRecent: 'مسح',
  removeRecent: (query) => `إزالة «${query}» من عمليات البحث الأخيرة`,
  recentCount: (count) => `${recent(count)}. اضغط Tab للاختيار.`,
  recentRemoved: (query) => `أُزيلت «${query}» من عمليات البحث الأخيرة.`,
  recentCleared: 'مُسحت عمليات البحث الأخيرة.',
  networkError: 'تعذّر الوصول إلى خدمة النطاقات. تحقّق من اتصالك.',
  serviceUnavailable: 'البحث عن النطاقات غير متاح على هذا الموقع حاليًا. يُرجى المحاولة لاحقًا.',
  offline: 'أنت غير متصل بالإنترنت. سيُستأنف البحث عند عودة الاتصال.',
  busy: (seconds) => `الخدمة مشغولة الآن. إعادة المحاولة خلال ${number(seconds)} ث…`,
  invalidResponse: 'أرسلت خدمة النطاقات ردًا غير متوقع. يُرجى إعادة المحاولة.',
  upstreamTimeout: 'لم يصل الرد في الوقت المحدد. يُرجى إعادة المحاولة.',
  queryTooLong: `البحث طويل جدًا: ${number(100)} حرف على الأكثر.`,
  validationError: 'يُرجى التحقق مما أدخلته.',
  notFound: 'هذا النطاق غير معروض للبيع.',
  conflict: 'بيع هذا النطاق للتو.',
  domainReserved: `يُكمل مشترٍ آخر شراء هذا النطاق. إن تراجع، يُعرض للبيع مجددًا خلال ${number(10)} دقائق.`,
  reserved: 'محجوز مؤقتًا',
  rateLimitedFor: (seconds) =>
    `الخدمة مشغولة الآن. يُرجى المحاولة بعد ${
      seconds < 90 ? `${number(seconds)} ث` : `${number(Math.ceil(seconds / 60))} د`
    }.`,
  unknownError: 'حدث خطأ ما. يُرجى المحاولة لاحقًا.',
  checkoutChecking: 'جارٍ تأكيد عملية الشراء…',
  checkoutConfirmed: (domain, price) =>
    `شكرًا لك! أصبح ${domain} ملكك: تم دفع ${price}. ستصلك تعليمات النقل عبر البريد الإلكتروني.`,
  checkoutUnconfirmed: 'تعذّر تأكيد عملية شراء من هذا الرابط. إذا كنت قد دفعت، فستجد التفاصيل في رسالة الإيصال.',
  checkoutCanceled: 'أُلغي الدفع: لم يُخصم أي مبلغ.',
  quoteTitle: (domain, price) => `${domain} مقابل ${price}`,
  lockedFor: (time) => `السعر محجوز لمدة ${time}`,
  lockEnding: 'تبقّى أقل من دقيقة للدفع بهذا السعر.',
  quoteExpired: 'انتهت مدة حجز السعر.',
  newQuote: 'احصل على سعر جديد',
  priceChanged: (price) => `السعر الآن ${price}.`,
  confirmPrice: (price) => `شراء مقابل ${price}`,
  paymentDeclined: 'رُفض الدفع. تحقّق من البيانات أو جرّب بطاقة أخرى.',
  paymentUnconfirmed: 'تعذّر تأكيد الدفع.',
  orderInterrupted: 'انقطع الاتصال أثناء تقديم طلبك. يمكنك إرساله مرة أخرى بأمان.',
  orderSold: (domain) => `بيع ${domain} لشخص آخر في هذه الأثناء.`,
  orderRefused: 'تعذّر على السوق قبول هذا الطلب.',
  moneyNotCharged: 'لم يُخصم أي مبلغ.',
  moneyRefunded: 'تم استرداد المبلغ المدفوع.',
  moneyRefundPending: 'سيُسترد المبلغ المدفوع.',
  moneyUnknown: 'إذا خُصم منك مبلغ، فسيكتمل الطلب أو يُسترد المبلغ تلقائيًا.',
  placingOrder: 'جارٍ تقديم طلبك…',
  orderThanks: 'شكرًا لطلبك!',
  orderPaid: (domain, price) => `دفعت ${price} مقابل ${domain}.`,
  orderProcessing: (domain, price) =>
    `نعمل على إتمام طلبك لـ ${domain} مقابل ${price}. إذا تعذّر إتمامه، فسيُسترد المبلغ تلقائيًا.`,
  orderNext: (status, domain) =>
    status === 'HELD_FOR_REVIEW'
      ? `طلبك لـ ${domain} قيد المراجعة لدى السوق. يبدأ النقل بعد اعتماده.`
      : status === 'TRANSFER_IN_PROGRESS'
        ? `بدأ نقل ${domain} إليك. تابع الخطوات في بريدك الإلكتروني.`
        : status === 'TRANSFER_COMPLETED' || status === 'SETTLED'
          ? `تم نقل ${domain} إليك.`
          : `الخطوة التالية: ينقل السوق ${domain} إليك. ستصلك تعليمات النقل عبر البريد الإلكتروني.`,
  orderReference: (orderId) => `مرجع الطلب: ${orderId}`,
  orderFailed: 'تعذّر إتمام طلبك.',
  cancel: 'إلغاء',
  done: 'تم',
};

export default ar;
