// The Vue app's entry: the component, with the presets that tell Vue the dk-* tags are custom elements (the console's
// plugin also defines its elements).
import { createApp } from 'vue';
import { DomainkitConsole } from '@domainkit/console/vue';
import { DomainkitVue } from '@domainkit/widget/vue';
import App from './App.vue';
import PartnerConsole from './PartnerConsole.vue';

createApp(App).use(DomainkitVue).mount('#app');
createApp(PartnerConsole).use(DomainkitConsole).mount('#console');
