/**
 * French strings of the widget, a complete {@link DkStrings} (an example set: review it with your own translator).
 * Not part of the script-tag entry: npm `@domainkit/widget/strings/fr`, script tag `domainkit-fr.min.js` beside
 * `domainkit.min.js`. Use: `element.strings = fr`, with `lang="fr"` on the page (prices follow it).
 */
import type { DkStrings } from '../strings.ts';

/** The widget's strings in French. */
export const fr: DkStrings = {
  searchLabel: 'Trouvez votre nom de domaine',
  searchPlaceholder: 'Essayez « café » ou « studio »',
  resultsLabel: 'Domaines correspondants',
  searching: 'Recherche…',
  tooShort: (min) => `Saisissez au moins ${min} caractères pour lancer la recherche.`,
  resultCount: (count) => (count > 1 ? `${count} domaines trouvés` : `${count} domaine trouvé`),
  noResults: (query) => `Aucun domaine ne correspond à « ${query} ».`,
  available: 'Disponible',
  unavailable: 'Déjà pris',
  retry: 'Réessayer',
  buy: 'Acheter',
  buyDomain: (domain) => `Acheter ${domain}`,
  siblingsTitle: 'Aussi disponibles',
  siblingRegistration: 'Pas encore enregistré : tout registraire peut l’enregistrer',
  siblingListing: 'En vente sur la place de marché',
  verdictListed: (domain) => `${domain} est en vente ici : achetez-le maintenant.`,
  verdictForSale: (domain) => `${domain} est en vente.`,
  verdictTaken: (domain) => `${domain} est déjà pris : quelqu’un l’a enregistré, et il n’est pas en vente ici.`,
  verdictUnregistered: (domain) =>
    `Personne n’a encore enregistré ${domain}. Cette boutique ne peut pas le vendre : tout registraire de noms de domaine peut l’enregistrer pour vous.`,
  verdictUnlisted: (domain) => `${domain} n’est pas proposé ici.`,
  verdictAlternatives: 'Ces noms peuvent être achetés dès maintenant :',
  verdictSimilar: 'Des noms proches :',
  whoisButton: 'Qui le détient ?',
  whoisLoading: 'Recherche en cours…',
  whoisHeld: (registrar, date) =>
    date ? `Enregistré chez ${registrar} depuis le ${date}.` : `Enregistré chez ${registrar}.`,
  whoisPrivate: 'Son enregistrement public ne nomme pas le registraire.',
  closeSearch: 'Fermer',
  recentSearches: 'Recherches récentes',
  clearRecent: 'Effacer',
  removeRecent: (query) => `Retirer « ${query} » des recherches récentes`,
  recentCount: (count) =>
    count === 1
      ? '1 recherche récente. Appuyez sur Tab pour la choisir.'
      : `${count} recherches récentes. Appuyez sur Tab pour en choisir une.`,
  recentRemoved: (query) => `« ${query} » retirée des recherches récentes.`,
  recentCleared: 'Recherches récentes effacées.',
  networkError: 'Impossible de joindre le service de domaines. Vérifiez votre connexion.',
  serviceUnavailable: 'La recherche de domaines est indisponible sur ce site pour le moment. Réessayez plus tard.',
  offline: 'Vous êtes hors ligne. La recherche reprendra dès votre retour.',
  busy: (seconds) => `Service occupé. Nouvel essai dans ${seconds} s…`,
  invalidResponse: 'Le service de domaines a envoyé une réponse inattendue. Réessayez.',
  upstreamTimeout: 'Pas de réponse à temps. Réessayez.',
  queryTooLong: 'Recherche trop longue : 100 caractères au maximum.',
  validationError: 'Vérifiez ce que vous avez saisi.',
  notFound: 'Ce domaine n’est pas à vendre.',
  conflict: 'Ce domaine vient d’être vendu.',
  domainReserved:
    'Un autre acheteur est en train d’acheter ce domaine. S’il y renonce, il sera de nouveau en vente d’ici 10 minutes.',
  reserved: 'Réservé',
  rateLimitedFor: (seconds) =>
    `Service occupé. Réessayez dans ${
      seconds < 90 ? `${seconds} seconde${seconds > 1 ? 's' : ''}` : `${Math.ceil(seconds / 60)} minutes`
    }.`,
  unknownError: 'Une erreur s’est produite. Réessayez plus tard.',
  checkoutChecking: 'Confirmation de votre achat…',
  checkoutConfirmed: (domain, price) =>
    `Merci ! ${domain} est à vous : ${price} payés. Les instructions de transfert suivent par e-mail.`,
  checkoutUnconfirmed:
    'Aucun achat n’a pu être confirmé depuis ce lien. Si vous avez payé, votre reçu par e-mail contient les détails.',
  checkoutCanceled: 'Paiement annulé : rien n’a été débité.',
  quoteTitle: (domain, price) => `${domain} pour ${price}`,
  lockedFor: (time) => `Prix garanti pendant ${time}`,
  lockEnding: 'Moins d’une minute pour payer à ce prix.',
  quoteExpired: 'La garantie de prix a expiré.',
  newQuote: 'Obtenir un nouveau prix',
  priceChanged: (price) => `Le prix est maintenant de ${price}.`,
  confirmPrice: (price) => `Acheter pour ${price}`,
  paymentDeclined: 'Paiement refusé. Vérifiez les informations ou essayez une autre carte.',
  paymentUnconfirmed: 'Votre paiement n’a pas pu être confirmé.',
  orderInterrupted: 'La connexion a été perdue pendant votre commande. Vous pouvez la renvoyer sans risque.',
  orderSold: (domain) => `${domain} a été vendu à quelqu’un d’autre entre-temps.`,
  orderRefused: 'La place de marché n’a pas pu accepter cette commande.',
  moneyNotCharged: 'Rien n’a été débité.',
  moneyRefunded: 'Votre paiement a été remboursé.',
  moneyRefundPending: 'Votre paiement va être remboursé.',
  moneyUnknown: 'Si vous avez été débité, la commande aboutira ou votre paiement sera remboursé automatiquement.',
  placingOrder: 'Commande en cours…',
  orderThanks: 'Merci pour votre commande !',
  orderPaid: (domain, price) => `Vous avez payé ${price} pour ${domain}.`,
  orderProcessing: (domain, price) =>
    `Nous finalisons votre commande de ${domain} pour ${price}. Si elle ne peut pas aboutir, votre paiement sera remboursé automatiquement.`,
  orderNext: (status, domain) =>
    status === 'HELD_FOR_REVIEW'
      ? `Votre commande de ${domain} est en cours de vérification par la place de marché. Le transfert commencera ensuite.`
      : status === 'TRANSFER_IN_PROGRESS'
        ? `Le transfert de ${domain} vers vous a commencé. Suivez les étapes reçues par e-mail.`
        : status === 'TRANSFER_COMPLETED' || status === 'SETTLED'
          ? `${domain} vous a été transféré.`
          : `Et maintenant : la place de marché vous transfère ${domain}. Les instructions de transfert arrivent par e-mail.`,
  orderReference: (orderId) => `Référence de commande : ${orderId}`,
  orderFailed: 'Votre commande n’a pas pu aboutir.',
  cancel: 'Annuler',
  done: 'Terminé',
};

export default fr;
