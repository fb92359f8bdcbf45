import type { Random } from './random.ts';

// Word pools for believable titles and descriptions in several scripts, with emoji, so that
// the app meets the text real catalogues hold (long titles, CJK, RTL, emoji) in every demo.

const CHANNEL_NAMES = [
  'Northwind Labs',
  'Kitchen Chronicles',
  'Orbit Daily',
  'The Patient Gardener',
  'Byte Sized',
  'Harbor Sessions',
  'Mountain Diaries',
  'Pixel & Pine',
  'Slow Travel Club',
  'Modular Synth Corner',
  'Chess Endgames',
  'Urban Sketchers',
  'Retro Repair Shop',
  'Deep Sea Notes',
  'Quiet Physics',
  'Street Food Atlas',
  'Bike Commute',
  'Lo-fi Library',
  'Stage Left Theatre',
  'Bread & Butter',
  '東京ウォーカー',
  '料理の時間',
  '音楽ノート',
  '서울 브이로그',
  '코딩하는 고양이',
  '北京小吃',
  '一起学中文',
  'Кухня у Маши',
  'Научпоп ТВ',
  'مطبخ سارة',
  'رحلات عربية',
  'हिंदी विज्ञान',
  'Café Français',
  'Fútbol Táctico',
  'Música en Casa',
  'Wandern im Harz',
  'Ελληνική Ιστορία',
  'Tech Tinkerers',
  'Space Weather Now',
  'Vinyl Hunters',
  'Climbing Beta',
  'Yoga with Ines',
  'Paper Planes Co',
  'Night Shift Radio',
  'Tiny Homes Tour',
  'Math Without Fear',
  'The Verge of Sound',
];

const TOPICS = [
  'sourdough',
  'modular synths',
  'Rust',
  'TypeScript',
  'urban gardening',
  'night photography',
  'bouldering',
  'street food',
  'watch repair',
  'typography',
  'jazz piano',
  'city cycling',
  'black holes',
  'retro consoles',
  'home espresso',
  'bonsai',
  'chess openings',
  'origami',
  'woodworking',
  'film cameras',
  'marathon training',
  'houseplants',
  'ceramics',
  'vinyl records',
];

const EN_TEMPLATES = [
  'How I learned {topic} in 30 days',
  'The truth about {topic} nobody tells you',
  '{topic} for absolute beginners (full course)',
  'I tried {topic} for a week 😅',
  'Why {topic} is harder than it looks',
  '10 {topic} mistakes to avoid in 2026',
  '{topic}: a complete guide | Part {n}',
  'Live Q&A: everything about {topic} 🎙️',
  'A quiet morning of {topic} ☕',
  'Building a {topic} setup on a budget 💸',
  'Is {topic} worth it? Honest review',
  '{topic} explained in {n} minutes',
  'Behind the scenes: {topic} 🎬',
  'Our biggest {topic} project yet 🚀🔥',
];

const OTHER_TEMPLATES = [
  '【初心者向け】{n}分でわかる料理のコツ 🍳',
  '東京の夜散歩 vlog #{n} 🌃',
  '프로그래밍 입문 {n}강 – 변수와 함수',
  '서울 카페 투어 ☕ Part {n}',
  '十分钟学会做饺子 🥟 第{n}集',
  '北京胡同漫步 | 第{n}期',
  'Как испечь хлеб дома — выпуск {n}',
  'Почему небо голубое? 🌌',
  'وصفة الكبسة السعودية 🍚 الحلقة {n}',
  'جولة في أسواق القاهرة القديمة',
  'हिंदी में विज्ञान: भाग {n}',
  'Recette de la tarte tatin 🍎 (épisode {n})',
  'Análisis táctico: partido {n} ⚽',
  'Wanderung zum Brocken – Teil {n} 🥾',
  'Η ιστορία της Αθήνας, μέρος {n}',
];

const DESCRIPTION_SENTENCES = [
  'In this video we take a slow, careful look at the basics.',
  'Chapters are in the description; timestamps below.',
  'Thanks to everyone who asked questions in the last stream!',
  'Filmed over three weekends with a very small crew.',
  'Subscribe for a new episode every Thursday. 🔔',
  'All the gear we used is listed at the end.',
  'We answer the five questions you asked most.',
  'Recorded live, so expect a few surprises.',
  'この動画では基本をゆっくり説明します。',
  '질문은 댓글로 남겨 주세요! 🙏',
  '欢迎订阅，每周更新。',
  'Спасибо, что смотрите! ❤️',
  'شكراً للمشاهدة، لا تنسوا الاشتراك.',
  'Merci d’avoir regardé, à la semaine prochaine !',
];

const PLAYLIST_TEMPLATES = [
  '{topic} — the complete series',
  'Best of {topic}',
  'Live streams 🎥',
  'Shorts 📱',
  '{topic} tutorials',
  'Season {n}',
  'Community favourites ⭐',
  'Start here 👋',
  'Archive {year}',
  'ベスト・オブ・{n}',
  '초보자 가이드 {n}',
  '精选合集 {n}',
  'Лучшее за {year}',
];

function fill(template: string, random: Random): string {
  const topic = random.pick(TOPICS);
  return template
    .replace('{topic}', template.startsWith('{topic}') ? capitalise(topic) : topic)
    .replace('{n}', String(random.int(1, 48)))
    .replace('{year}', String(random.int(2012, 2026)));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function channelName(random: Random, index: number): string {
  const base = CHANNEL_NAMES[index % CHANNEL_NAMES.length] as string;
  const round = Math.floor(index / CHANNEL_NAMES.length);
  return round === 0
    ? base
    : `${base} ${random.pick(['TV', 'Studio', 'Live', 'Clips', 'Extra', String(round + 1)])}`;
}

export function videoTitle(random: Random): string {
  return fill(
    random.chance(0.7) ? random.pick(EN_TEMPLATES) : random.pick(OTHER_TEMPLATES),
    random,
  );
}

export function playlistTitle(random: Random): string {
  return fill(random.pick(PLAYLIST_TEMPLATES), random);
}

export function description(random: Random, sentences: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(random.pick(DESCRIPTION_SENTENCES));
  return parts.join(' ');
}
