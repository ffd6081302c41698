import type { Page } from 'playwright-core';

/**
 * Opens a dashboard page the way a person does through the grouped navigation: the "Menu" button first below
 * 768 px, the group's menu button when the page sits in a group, then the page's link.
 */
export async function openPage(page: Page, label: string): Promise<void> {
  const link = page.locator(`nav[aria-label="Main"] a:text-is("${label}")`);
  if (!(await link.isVisible())) {
    const menu = page.locator('nav[aria-label="Main"] .menu-toggle');
    if (await menu.isVisible()) await menu.click();
    else
      await page
        .locator('nav[aria-label="Main"] .nav-group', { has: page.locator(`a:text-is("${label}")`) })
        .locator('> button')
        .click();
  }
  await link.click();
}

/** Opens the account menu at the header's right and presses one of its entries ("Sign out", "Keyboard shortcuts"). */
export async function accountMenu(page: Page, entry: string): Promise<void> {
  await page.click('.account-toggle');
  await page.click(`#account-menu >> text=${entry}`);
}
