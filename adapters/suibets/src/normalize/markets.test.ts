import { describe, expect, test } from 'vitest';
import { predictionLabel } from './markets.js';

const teams = { homeTeam: 'Arsenal', awayTeam: 'Chelsea' };

describe('the creator’s pick in words', () => {
  test.each([
    ['home', 'Arsenal'],
    ['away', 'Chelsea'],
    ['draw', 'Draw'],
    ['over_2.5', 'Over 2.5'],
    ['under_0.5', 'Under 0.5'],
    ['btts_yes', 'Both teams score'],
    ['home_or_draw', 'Arsenal or draw'],
    ['home_or_away', 'Arsenal or Chelsea'],
    ['home_-1.5', 'Arsenal -1.5'],
    ['away_+0.5', 'Chelsea +0.5'],
    ['ht_draw', 'Draw at half-time'],
    ['score_2-1', 'Score 2-1'],
    ['cs_away', 'Chelsea clean sheet'],
    // A pick the vocabulary does not cover is shown as the venue wrote it, never dropped.
    ['player_goal_saka', 'player_goal_saka'],
  ])('%s reads "%s"', (prediction, label) => {
    expect(predictionLabel(prediction, teams)).toBe(label);
  });

  test('a fixture without team names still names the side', () => {
    expect(predictionLabel('home', { homeTeam: null, awayTeam: '' })).toBe('Home');
    expect(predictionLabel('away', {})).toBe('Away');
  });
});
