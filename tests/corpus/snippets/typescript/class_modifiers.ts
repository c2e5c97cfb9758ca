class BankAccount {
  private balance: number = 0;
  public readonly owner: string;
  protected history: string[] = [];
  static count = 0;

  constructor(owner: string, initial: number) {
    this.owner = owner;
    this.deposit(initial);
    BankAccount.count++;
  }

  public deposit(amount: number): void {
    if (amount <= 0) throw new Error('Deposit must be positive');
    this.balance += amount;
    this.history.push(`+${amount}`);
  }

  public withdraw(amount: number): boolean {
    if (amount > this.balance) return false;
    this.balance -= amount;
    this.history.push(`-${amount}`);
    return true;
  }

  get current(): number {
    return this.balance;
  }
}

const acct = new BankAccount('Dana', 100);
acct.deposit(50);
console.log(acct.withdraw(500), acct.withdraw(30));
({ owner: acct.owner, balance: acct.current, accounts: BankAccount.count });
