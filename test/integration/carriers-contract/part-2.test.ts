import { shippingStories } from './story.js';

shippingStories(2);
