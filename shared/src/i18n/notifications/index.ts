import type { AreaMessages } from '../types.ts';

// In-app notification titles, written in each recipient's language (notifications.notify.ts `titleId`).
const en = {
  newsPublished: 'News: {name}',
  dutyExceeded: 'Duty limit exceeded on flight of {date}',
} as const;

export const notificationsMessages: AreaMessages<typeof en> = {
  en,
  es: {
    newsPublished: 'Noticia: {name}',
    dutyExceeded: 'Límite de actividad superado en el vuelo del {date}',
  },
  fr: {
    newsPublished: 'Actualité : {name}',
    dutyExceeded: 'Limite de temps de service dépassée sur le vol du {date}',
  },
  de: {
    newsPublished: 'Neuigkeit: {name}',
    dutyExceeded: 'Dienstzeitgrenze beim Flug vom {date} überschritten',
  },
};
