import type { Preview } from '@storybook/react-vite'

const preview: Preview = {
  // A docs page for every component, generated from its props' types.
  tags: ['autodocs'],
  parameters: {
    layout: 'padded',
    controls: { expanded: true, sort: 'requiredFirst' },
    options: { storySort: { order: ['Introduction', 'Components', 'Legacy (v1)', 'Recipes'] } },
    docs: { codePanel: true },
  },
}

export default preview
