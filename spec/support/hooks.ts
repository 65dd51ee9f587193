export const mochaHooks = {
  beforeAll(): void { console.log('root hook ran'); },
};
