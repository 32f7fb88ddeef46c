/**
 * A refusal to start that the operator must act on. Its message is complete and safe to print
 * (it names variables and files, never a secret's value); main.ts prints it and exits 1.
 */
export class BootError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BootError';
  }
}
