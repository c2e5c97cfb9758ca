import { format } from 'date-fns';
import { fr, de } from 'date-fns/locale';
const d = new Date(2024, 6, 14, 9, 30);
console.log(format(d, 'PPPP', { locale: fr }), '|', format(d, 'PPpp', { locale: de }));
