/**
 * Demo announcements loaded into an empty database on first start.
 * Pure data: the loader resolves {{asset:NAME}} placeholders against
 * server/demo-assets/ and turns daysAgo into a publish date.
 */

export interface DemoBulletin {
  title: string;
  /** HTML body. Images are written as src="{{asset:NAME}}" where NAME is a file in server/demo-assets/ (e.g. {{asset:welcome.svg}}); the loader replaces the placeholder with the stored relative path file/preview/<key>. */
  content: string;
  pinned: boolean;
  /** How many days before "now" the announcement was published, so demo dates stay recent. */
  daysAgo: number;
}

export const demoBulletins: readonly DemoBulletin[] = [
  {
    title: '安卓客户端 5.0.1 小版本更新已推送',
    content: '',
    pinned: false,
    daysAgo: 0,
  },
  {
    title: '星聊 5.0 正式版发布：全新界面，更快更稳',
    content: `<p><img src="{{asset:release-notes.svg}}" alt="星聊 5.0 新版本"></p>
<p>经过三个月的公测和数万名用户的反馈打磨，<strong>星聊 5.0 正式版</strong>今天起在全平台陆续推送。感谢每一位参与测试、提交建议的朋友！</p>
<h2>本次更新亮点</h2>
<ul>
<li><strong>全新视觉设计</strong>：会话列表更清爽，深色模式覆盖全部页面。</li>
<li><strong>消息同步提速</strong>：多端登录时消息同步速度平均提升 40%，弱网环境下收发更稳定。</li>
<li><strong>聊天记录搜索</strong>：支持按联系人、日期、文件类型组合筛选。</li>
<li><strong>语音消息转文字</strong>：长按语音消息即可转换，支持普通话和粤语。</li>
</ul>
<h3>各平台最低系统要求</h3>
<table>
<thead><tr><th>平台</th><th>最低系统版本</th><th>安装包大小</th></tr></thead>
<tbody>
<tr><td>Android</td><td>Android 8.0</td><td>约 86 MB</td></tr>
<tr><td>iOS</td><td>iOS 15.0</td><td>约 120 MB</td></tr>
<tr><td>Windows</td><td>Windows 10（64 位）</td><td>约 95 MB</td></tr>
<tr><td>macOS</td><td>macOS 12</td><td>约 110 MB</td></tr>
</tbody>
</table>
<h3>升级方式</h3>
<p>应用商店会在 7 天内逐步推送，您也可以前往<a href="https://www.example.com/download">官网下载页</a>手动安装。升级不会影响已有聊天记录，但建议在升级前通过“设置 → 聊天 → 备份”做一次备份。</p>
<p>完整更新日志请查看<a href="https://help.example.com/changelog/5-0">5.0 更新说明</a>。</p>`,
    pinned: true,
    daysAgo: 3,
  },
  {
    title: '本周六凌晨服务器例行维护通知',
    content: `<p><img src="{{asset:maintenance.svg}}" alt="系统维护"></p>
<p>为提升服务稳定性，星聊将于<strong>本周六 02:00–06:00</strong>进行机房网络设备升级和数据库例行维护。维护期间部分功能将暂时受影响，给您带来的不便敬请谅解。</p>
<h2>受影响范围</h2>
<table>
<thead><tr><th>功能</th><th>影响程度</th><th>预计时长</th></tr></thead>
<tbody>
<tr><td>文字消息收发</td><td>可能出现短暂延迟</td><td>约 10 分钟</td></tr>
<tr><td>图片、文件上传</td><td>暂停服务</td><td>约 2 小时</td></tr>
<tr><td>音视频通话</td><td>可能中断，需重新拨打</td><td>约 30 分钟</td></tr>
<tr><td>新用户注册、找回密码</td><td>暂停服务</td><td>整个维护窗口</td></tr>
</tbody>
</table>
<h3>温馨提示</h3>
<ul>
<li>维护期间<strong>请勿频繁退出重新登录</strong>，以免触发登录保护。</li>
<li>维护期间发送失败的消息会保留在本地，恢复后可点击重发。</li>
<li>如维护提前结束，我们会第一时间在本页面更新。</li>
</ul>
<p>维护进度可关注<a href="https://status.example.com">星聊服务状态页</a>。</p>`,
    pinned: false,
    daysAgo: 6,
  },
  {
    title: '警惕冒充客服诈骗！星聊不会要求您转账或共享屏幕',
    content: `<p><img src="{{asset:security.svg}}" alt="防诈骗提醒"></p>
<p>近期我们收到多起用户反馈：有不法分子冒充“星聊官方客服”“平台安全中心”，以账号异常、会员扣费、注销贷款等理由诱导转账。请大家务必提高警惕。</p>
<blockquote>星聊官方客服<strong>绝不会</strong>以任何理由要求您转账、提供验证码、下载第三方会议软件或开启屏幕共享。</blockquote>
<h2>常见骗局手法</h2>
<ol>
<li>私聊发送“您的账号涉嫌违规将被封禁”，要求添加所谓“专员”处理。</li>
<li>谎称会员自动续费，需要“关闭扣费”，引导进入仿冒网页填写银行卡信息。</li>
<li>在群聊中发布“刷单返利”“内部投资群”，前几次小额返现后诱导大额投入。</li>
<li>冒充亲友借钱，头像和昵称与熟人完全相同。</li>
</ol>
<h3>如何识别官方账号</h3>
<p>官方客服账号在资料页显示<strong>蓝色认证标识</strong>，且只会通过“我 → 帮助与反馈”入口与您联系。遇到可疑消息，请长按消息选择“举报”，或访问<a href="https://safety.example.com/report">安全举报中心</a>。</p>
<p>如已发生资金损失，请立即拨打 110 报警，并保留聊天截图等证据。</p>`,
    pinned: true,
    daysAgo: 10,
  },
  {
    title: '新功能上线：自定义表情，让聊天更有个性',
    content: `<p>应大家呼声，<strong>自定义表情</strong>功能现已在 4.9.5 及以上版本开放。您可以把喜欢的图片、动图收藏为专属表情，在任意会话中一键发送。</p>
<h2>如何添加自定义表情</h2>
<ol>
<li>在聊天中长按一张图片或动图，选择“添加到表情”。</li>
<li>或进入“表情面板 → 心形图标 → 右上角 +”，从相册批量导入。</li>
<li>在表情管理页可拖动排序、设置分组，也可以批量删除。</li>
</ol>
<h3>使用说明</h3>
<ul>
<li>每个账号最多收藏 <strong>500</strong> 个自定义表情，单个文件不超过 5 MB。</li>
<li>支持 PNG、JPG、GIF 和 WebP 格式，动图时长建议不超过 10 秒。</li>
<li>自定义表情随账号云端同步，换手机登录后依然可用。</li>
</ul>
<p>请勿上传侵犯他人版权或违反社区规范的内容，违规表情将被下架。更多细节见<a href="https://help.example.com/stickers">表情使用帮助</a>。</p>`,
    pinned: false,
    daysAgo: 18,
  },
  {
    title: '万人群聊开启内测，社群运营者欢迎申请',
    content: `<p>为满足品牌社区、线上课程、兴趣社团等大型社群的需求，星聊推出<strong>万人群聊</strong>，单群成员上限提升至 10000 人，现开放首批内测申请。</p>
<h2>群规格对比</h2>
<table>
<thead><tr><th>群类型</th><th>成员上限</th><th>管理员数量</th><th>专属能力</th></tr></thead>
<tbody>
<tr><td>普通群</td><td>500 人</td><td>3 人</td><td>基础群管理</td></tr>
<tr><td>大群</td><td>2000 人</td><td>10 人</td><td>入群审核、群公告置顶</td></tr>
<tr><td>万人群</td><td>10000 人</td><td>30 人</td><td>分组发言、慢速模式、数据看板</td></tr>
</tbody>
</table>
<h3>申请条件</h3>
<ul>
<li>群主账号已完成实名认证，且近 90 天无违规记录。</li>
<li>现有群成员已超过 1500 人，或能提供社群运营计划。</li>
</ul>
<p>提交申请请访问<a href="https://www.example.com/groups/apply">万人群聊内测申请页</a>，我们将在 5 个工作日内完成审核并通过系统消息通知结果。</p>`,
    pinned: false,
    daysAgo: 25,
  },
  {
    title: '“阅后即焚”私密消息功能正式上线',
    content: `<p>有些话，只想让对方看一眼。从 4.9.0 版本起，单聊中可以开启<strong>阅后即焚</strong>模式。</p>
<h2>功能说明</h2>
<ul>
<li>在单聊输入框点击“+ → 阅后即焚”，即可进入私密发送模式。</li>
<li>对方查看消息后开始倒计时，可选 <strong>5 秒、30 秒或 1 分钟</strong>，结束后双方设备上的消息均自动删除。</li>
<li>支持文字、图片和语音，暂不支持文件和转发。</li>
<li>对方截屏时，您会收到系统提示。</li>
</ul>
<h3>需要注意的地方</h3>
<p>阅后即焚消息不会进入聊天备份，也无法被找回。我们无法阻止对方用另一台设备拍照，请<strong>不要</strong>用它发送银行卡密码、验证码等敏感信息。</p>
<p>了解更多，请查看<a href="https://help.example.com/burn-after-reading">阅后即焚常见问题</a>。</p>`,
    pinned: false,
    daysAgo: 33,
  },
  {
    title: '五一假期客服服务时间安排',
    content: `<p>五一劳动节将至，星聊客服团队假期期间的服务时间安排如下。祝大家假期愉快！</p>
<table>
<thead><tr><th>日期</th><th>在线客服</th><th>电话客服</th><th>邮件工单</th></tr></thead>
<tbody>
<tr><td>假期第 1 天</td><td>10:00–18:00</td><td>暂停</td><td>48 小时内回复</td></tr>
<tr><td>假期第 2–4 天</td><td>10:00–18:00</td><td>10:00–16:00</td><td>48 小时内回复</td></tr>
<tr><td>假期最后 1 天</td><td>09:00–22:00</td><td>09:00–18:00</td><td>24 小时内回复</td></tr>
</tbody>
</table>
<p>假期恢复后，客服将恢复每日 <strong>09:00–22:00</strong> 的正常服务时间。</p>
<p>账号被盗、遭遇诈骗等紧急情况不受假期影响，可随时在 App 内“我 → 帮助与反馈 → 紧急冻结”自助冻结账号，或访问<a href="https://help.example.com">星聊帮助中心</a>查看常见问题。</p>`,
    pinned: false,
    daysAgo: 45,
  },
  {
    title: 'iOS TestFlight 测试版安装提醒',
    content: `<p>感谢参与星聊 iOS 测试计划的朋友们。近期有不少测试用户反馈“测试版打不开”，这通常是因为<strong>TestFlight 版本已过期</strong>：每个测试版本自上传起 90 天后自动失效。</p>
<h2>安装或更新步骤</h2>
<ol>
<li>在 App Store 搜索并安装 Apple 官方的 TestFlight 应用。</li>
<li>用 iPhone 打开<a href="https://testflight.example.com/join/xingliao">星聊公开测试邀请链接</a>，点击“接受”。</li>
<li>在 TestFlight 中点击“安装”或“更新”，完成后即可从桌面打开星聊测试版。</li>
</ol>
<h3>常见问题</h3>
<ul>
<li><strong>名额已满</strong>：公开测试名额为 10000 人，满员后请关注本栏目的扩容通知。</li>
<li><strong>聊天记录会丢吗</strong>：测试版与正式版共用账号和云端消息，但本地草稿不会互通。</li>
<li><strong>如何退出测试</strong>：在 TestFlight 中选择“停止测试”，再从 App Store 安装正式版即可。</li>
</ul>
<p>测试版问题请通过 App 内“摇一摇反馈”提交，附上截图能帮助我们更快定位。</p>`,
    pinned: false,
    daysAgo: 52,
  },
  {
    title: '《星聊隐私政策》更新说明',
    content: `<p>为更清晰地说明我们如何处理您的个人信息，我们对《星聊隐私政策》进行了更新，新版本将在<strong>发布之日起 15 天后</strong>生效。</p>
<h2>主要变更内容</h2>
<ul>
<li>新增“阅后即焚”“语音转文字”等新功能所涉及数据的处理说明。</li>
<li>明确聊天记录云端备份的保存期限，以及账号注销后的删除时限（15 个工作日内）。</li>
<li>补充第三方 SDK 清单，逐项列出名称、用途和收集的信息类型。</li>
<li>新增“个人信息导出”功能入口说明，您可以一键导出自己的账号资料。</li>
</ul>
<h2>我们的承诺</h2>
<p>星聊<strong>不会</strong>读取或分析您的私聊内容用于广告推送，也不会向第三方出售您的个人信息。</p>
<p>完整文本请阅读<a href="https://www.example.com/legal/privacy">新版隐私政策</a>，逐条对照可查看<a href="https://www.example.com/legal/privacy/diff">变更对照表</a>。如有疑问，欢迎发送邮件至 privacy@example.com。</p>`,
    pinned: false,
    daysAgo: 60,
  },
  {
    title: '账号安全小贴士：开启两步验证，守护你的聊天记录',
    content: `<p>密码泄露是账号被盗最常见的原因。开启<strong>两步验证</strong>后，即使密码被他人获知，对方在新设备登录时仍需通过您手机上的二次确认。</p>
<h2>三分钟完成设置</h2>
<ol>
<li>打开“我 → 设置 → 账号与安全 → 两步验证”。</li>
<li>选择验证方式：短信验证码，或使用身份验证器 App 生成动态码。</li>
<li>妥善保存系统生成的 <strong>10 个备用恢复码</strong>，建议抄写在纸上离线保管。</li>
</ol>
<h3>更多安全建议</h3>
<ul>
<li>不同网站不要使用相同密码，密码长度建议 12 位以上。</li>
<li>定期查看“登录设备管理”，移除不认识的设备。</li>
<li>不要点击来历不明的链接，也不要在非官方页面输入星聊密码。</li>
</ul>
<p>更多内容见<a href="https://safety.example.com/guide">星聊安全指南</a>。</p>`,
    pinned: false,
    daysAgo: 75,
  },
  {
    title: '欢迎来到星聊官方公告栏',
    content: `<p><img src="{{asset:welcome.svg}}" alt="欢迎使用星聊"></p>
<p>你好！这里是<strong>星聊官方公告栏</strong>。今后，版本更新、系统维护、新功能介绍、安全提醒等重要消息都会第一时间发布在这里。</p>
<h2>你可以在这里看到</h2>
<ul>
<li>各平台客户端的版本更新说明和下载地址；</li>
<li>计划内维护的时间窗口和影响范围；</li>
<li>防诈骗提醒和账号安全建议；</li>
<li>节假日客服时间安排、政策与协议变更。</li>
</ul>
<h3>找到我们</h3>
<p>使用中遇到问题，可以先查阅<a href="https://help.example.com">帮助中心</a>；想和开发团队聊聊新功能，欢迎加入<a href="https://community.example.com">星聊用户社区</a>。</p>
<p>感谢你选择星聊，愿每一次聊天都轻松、安心。</p>`,
    pinned: false,
    daysAgo: 120,
  },
];
