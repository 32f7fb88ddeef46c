export { type CsvCell, csvCell, csvLine } from './csv.js';
