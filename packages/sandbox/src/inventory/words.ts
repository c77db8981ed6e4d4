/**
 * Common, brandable English words the synthetic inventory is built from (one or two per label, as in
 * `coffeehouse.com`). All lowercase ASCII letters, unique, 3–8 letters, so every label is a real word or a pair of
 * real words a visitor would search for.
 */
export const WORDS: readonly string[] = [
  // food and drink
  'coffee', 'tea', 'bean', 'brew', 'cafe', 'bread', 'bake', 'honey', 'apple', 'berry', 'lemon', 'mint', 'olive',
  'pepper', 'salt', 'sugar', 'spice', 'juice', 'pizza', 'pasta', 'taco', 'sushi', 'cookie', 'cake', 'candy', 'cocoa',
  'grill', 'kitchen', 'chef', 'feast', 'lunch', 'dinner', 'snack', 'fresh', 'farm', 'garden', 'harvest', 'orchard',
  'vine', 'wine', 'cider', 'malt', 'grain', 'maple', 'peach', 'plum', 'mango', 'cherry', 'melon', 'basil',
  // places and buildings
  'house', 'home', 'cabin', 'lodge', 'villa', 'tower', 'castle', 'market', 'studio', 'shop', 'store', 'hub', 'lab',
  'works', 'forge', 'mill', 'yard', 'port', 'harbor', 'bay', 'cove', 'bridge', 'gate', 'street', 'lane', 'road',
  'avenue', 'plaza', 'square', 'city', 'town', 'village', 'camp', 'base', 'dock', 'depot', 'vault', 'nest', 'den',
  'hive', 'arena', 'court', 'hall', 'school', 'academy', 'library', 'museum', 'gallery', 'theater', 'club',
  // nature
  'river', 'lake', 'ocean', 'sea', 'wave', 'tide', 'shore', 'beach', 'island', 'coast', 'reef', 'stone', 'rock',
  'cliff', 'peak', 'summit', 'ridge', 'valley', 'canyon', 'mesa', 'desert', 'forest', 'wood', 'pine', 'oak', 'cedar',
  'birch', 'willow', 'fern', 'moss', 'leaf', 'root', 'seed', 'bloom', 'blossom', 'flower', 'rose', 'lily', 'lotus',
  'sun', 'moon', 'star', 'sky', 'cloud', 'rain', 'storm', 'thunder', 'snow', 'frost', 'ice', 'fire', 'flame', 'spark',
  'ember', 'light', 'shadow', 'dawn', 'dusk', 'night', 'day', 'spring', 'summer', 'autumn', 'winter', 'earth',
  'planet', 'comet', 'orbit', 'galaxy', 'nova', 'meadow', 'prairie', 'glacier', 'falcon', 'eagle', 'hawk', 'owl',
  'raven', 'robin', 'sparrow', 'swan', 'fox', 'wolf', 'bear', 'lion', 'tiger', 'otter', 'beaver', 'rabbit', 'deer',
  'horse', 'whale', 'dolphin', 'shark', 'turtle', 'panda', 'koala', 'zebra', 'bee', 'ant',
  // colours and qualities
  'red', 'blue', 'green', 'gold', 'silver', 'amber', 'coral', 'ivory', 'indigo', 'violet', 'crimson', 'azure',
  'scarlet', 'jade', 'ruby', 'pearl', 'onyx', 'bright', 'bold', 'brave', 'calm', 'clear', 'clever', 'cool', 'happy',
  'lucky', 'smart', 'swift', 'quick', 'true', 'pure', 'prime', 'grand', 'noble', 'royal', 'wild', 'wise', 'kind',
  'sharp', 'solid', 'simple', 'modern', 'urban', 'rustic', 'little', 'big', 'tiny', 'mighty', 'super', 'epic',
  'golden', 'sunny', 'cozy', 'fancy', 'vivid', 'zen', 'magic', 'silent', 'gentle', 'rapid', 'steady', 'global',
  'local', 'open', 'free', 'first', 'next', 'new', 'good', 'great', 'best', 'better', 'true', 'north', 'south',
  'east', 'west', 'central',
  // work, tech and commerce
  'cloud', 'data', 'code', 'byte', 'pixel', 'logic', 'signal', 'network', 'link', 'node', 'stack', 'craft', 'maker',
  'builder', 'design', 'digital', 'smart', 'robot', 'rocket', 'engine', 'motor', 'gear', 'tool', 'kit', 'box',
  'block', 'chain', 'token', 'coin', 'cash', 'pay', 'bank', 'fund', 'trade', 'deal', 'sale', 'buy', 'sell', 'cart',
  'basket', 'bazaar', 'supply', 'goods', 'brand', 'media', 'press', 'news', 'story', 'book', 'page', 'paper', 'ink',
  'pen', 'note', 'letter', 'word', 'voice', 'echo', 'sound', 'music', 'song', 'tune', 'beat', 'rhythm', 'dance',
  'play', 'game', 'sport', 'ball', 'goal', 'team', 'coach', 'fit', 'health', 'care', 'heart', 'mind', 'soul', 'life',
  'spirit', 'dream', 'vision', 'idea', 'insight', 'pilot', 'guide', 'scout', 'ranger', 'pioneer', 'venture', 'quest',
  'journey', 'travel', 'trip', 'voyage', 'ticket', 'map', 'compass', 'anchor', 'sail', 'boat', 'ship', 'fleet',
  'jet', 'wing', 'flight', 'launch', 'rise', 'boost', 'spring', 'jump', 'leap', 'dash', 'sprint', 'zoom', 'flow',
  'stream', 'pulse', 'wire', 'grid', 'field', 'point', 'path', 'trail', 'route', 'way', 'circle', 'sphere', 'cube',
  'prism', 'arrow', 'shield', 'crown', 'key', 'lock', 'door', 'window', 'room', 'space', 'place', 'spot', 'corner',
  'edge', 'core', 'center', 'zone', 'world', 'nation', 'union', 'alliance', 'partner', 'friend', 'family', 'people',
  'crew', 'tribe', 'guild', 'circle', 'pet', 'paw', 'dog', 'cat', 'baby', 'kids', 'mom', 'style', 'fashion', 'wear',
  'shoe', 'hat', 'coat', 'silk', 'cotton', 'wool', 'linen', 'thread', 'needle', 'loom', 'clay', 'glass', 'metal',
  'steel', 'iron', 'copper', 'marble', 'brick', 'timber', 'paint', 'color', 'canvas', 'frame', 'photo', 'film',
  'camera', 'lens', 'focus', 'art', 'poet', 'muse', 'legend', 'hero', 'giant', 'titan', 'atlas', 'phoenix',
  'dragon', 'unicorn', 'wizard', 'knight', 'king', 'queen', 'prince', 'empire', 'kingdom', 'haven', 'oasis',
  'paradise', 'retreat', 'escape', 'holiday', 'party', 'event', 'festival', 'gift', 'treasure', 'jewel', 'diamond',
  'crystal', 'charm', 'wonder', 'miracle', 'spark', 'glow', 'shine', 'bolt', 'flash', 'blaze', 'solar', 'lunar',
  'cosmic', 'atomic', 'quantum', 'vector', 'matrix', 'pixel', 'studio',
].filter((word, index, all) => all.indexOf(word) === index);

/** The words as a set, for segmenting a query such as `coffeehouse` into `coffee` + `house`. */
export const WORD_SET: ReadonlySet<string> = new Set(WORDS);
