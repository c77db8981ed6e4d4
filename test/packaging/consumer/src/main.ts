// The Vue app's entry: the component, with the preset that tells Vue the dk-* tags are custom elements.
import { createApp } from 'vue';
import { DomainkitVue } from '@domainkit/widget/vue';
import App from './App.vue';

createApp(App).use(DomainkitVue).mount('#app');
