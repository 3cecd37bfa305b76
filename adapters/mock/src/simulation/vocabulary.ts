/**
 * Words the simulated venue builds its questions from. The venue files its
 * events under its own category names (`Economy`, `Pop Culture`, ...), as real
 * venues do, so the gateway's category normalisation has something to do.
 */

export const categories = ['Politics', 'World', 'Sports', 'Crypto', 'Economy', 'Science', 'Tech', 'Pop Culture'] as const;
export type MockCategory = (typeof categories)[number];

export const countries = [
  'Freedonia',
  'Sylvania',
  'Latveria',
  'Genovia',
  'Elbonia',
  'Borduria',
  'Syldavia',
  'Wakanda',
  'Zubrowka',
  'Markovia',
  'Qurac',
  'Kasnia',
  'Santa Prisca',
  'Carpania',
  'Vlatava',
  'Ruritania',
];
export const firstNames = [
  'Alex',
  'Jordan',
  'Sam',
  'Riley',
  'Morgan',
  'Quinn',
  'Avery',
  'Parker',
  'Drew',
  'Sage',
  'Jules',
  'Remy',
  'Casey',
  'Rowan',
  'Emery',
  'Harper',
  'Logan',
  'Reese',
  'Skyler',
  'Tatum',
];
export const lastNames = [
  'Nguyen',
  'Garcia',
  'Patel',
  'Silva',
  'Berg',
  'Wright',
  'Choi',
  'Diaz',
  'Reed',
  'Stone',
  'Singh',
  'Cole',
  'Okafor',
  'Larsen',
  'Moreau',
  'Tanaka',
  'Kowalski',
  'Haddad',
  'Ivanova',
  'Mensah',
];
export const offices = ['presidential', 'prime ministerial', 'parliamentary', 'mayoral', 'senate', 'gubernatorial'];
export const parties = ['Unity Party', 'Progress Alliance', 'Green Front', 'Liberty League', 'Workers Bloc', 'Independents'];
export const teams = [
  'Harbor City Gulls',
  'Red Rock Miners',
  'Lakeside Pike',
  'Northgate Wolves',
  'Summit Peaks',
  'Bay Area Comets',
  'Iron Valley Forge',
  'Capital Senators',
  'Desert Scorpions',
  'River Town Otters',
  'Metro Titans',
  'Coastal Sharks',
  'Prairie Bison',
  'Granite Rams',
  'Sunset Falcons',
  'Midland Foxes',
];
export const leagues = ['Premier Ball League', 'National Hoops Association', 'Continental Cup', 'Grand Tour', 'Pro Hockey Circuit'];
export const coins = [
  { symbol: 'BTC', name: 'Bitcoin', price: 95_000 },
  { symbol: 'ETH', name: 'Ethereum', price: 3_600 },
  { symbol: 'SOL', name: 'Solana', price: 180 },
  { symbol: 'XRP', name: 'XRP', price: 2.4 },
  { symbol: 'DOGE', name: 'Dogecoin', price: 0.35 },
  { symbol: 'ADA', name: 'Cardano', price: 0.9 },
];
export const centralBanks = ['Federal Reserve', 'European Central Bank', 'Bank of England', 'Bank of Japan', 'Reserve Bank'];
export const indicators = ['CPI inflation', 'unemployment', 'GDP growth', 'core PCE', 'retail sales growth'];
export const agencies = ['NASA', 'ESA', 'JAXA', 'ISRO', 'a private launcher'];
export const missions = ['a crewed lunar landing', 'a Mars sample return', 'a new space telescope', 'an asteroid flyby', 'a Venus probe'];
export const companies = ['Acme', 'Nimbus', 'Vanta', 'Quanta', 'Helio', 'Orbit', 'Vector', 'Prism', 'Axiom', 'Cipher'];
export const products = ['a foldable phone', 'an AI assistant', 'a self-driving taxi', 'a mixed-reality headset', 'a humanoid robot'];
export const films = ['Starfall', 'The Last Harbor', 'Neon Tides', 'Quiet Empire', 'Paper Moons', 'Iron Meridian', 'Glass Garden'];
export const awards = ['Golden Reel Awards', 'Silver Mask Festival', 'Aurora Music Awards', 'Crystal Screen Awards'];
export const months = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
