export const venue = 'template';
